/** The policy evaluator: one request, one token, one context in; one Decision out. Pure. */
// Hot path: every request runs through here; `npm run bench` guards it.
import { TollgateError } from '../core/errors.js';
import { showText } from '../core/show-text.js';
import { matchRoute } from '../routes/route-tree.js';
import { type EntryPlan, planEntry, scopeMasks, type VisibilityPlan } from './entry-plan.js';
import { evaluateEndpoint } from './evaluate-endpoint.js';
import { type Outcome, outcome } from './outcome.js';
import type { EndpointMatch, PolicyMatch, UnmatchedRequest } from './policy-match.js';
import { type PolicyOptions, type ResolvedPolicyOptions, resolvePolicyOptions } from './policy-options.js';
import type { PolicyTables } from './tables.js';
import { createTokenReader, slugIndexes, type TokenView } from './token-view.js';
import {
  type Decision,
  HTTP_METHODS,
  type PolicyRequest,
  type ResourceContext,
  type Token,
} from './types.js';

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze(Object.create(null));
const EMPTY_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
const NO_REQUIREMENT = Object.freeze({ fineGrained: null, classic: null });
const EMPTY_REQUEST: PolicyRequest = Object.freeze({ method: '', path: '' });
const METHODS: ReadonlySet<string> = new Set(HTTP_METHODS);
const ASCII_LETTERS = /^[A-Za-z]+$/;

// Methods fold case in ASCII only: Unicode upper-casing would turn `poſt` into POST.
function methodOf(given: unknown): string {
  if (typeof given !== 'string') return '';
  if (METHODS.has(given)) return given;
  return ASCII_LETTERS.test(given) ? given.toUpperCase() : given;
}

/** An evaluator bound to its tables and options: `match` reads a request's path once, `decide` evaluates. */
export interface Policy {
  /** Decides one request: `decide(match(request), token, context)`. Never throws for any request or context; throws TOLLGATE_INVALID_TOKEN for a value that is not a Token. */
  authorize(request: PolicyRequest, token: Token, context?: ResourceContext): Decision;
  /** Where `request` lands: the endpoint's own row and parameters, or why none. Never throws. */
  match(request: PolicyRequest): PolicyMatch;
  /** Decides a matched request for `token` and the server's facts. Never throws for any context; throws TOLLGATE_INVALID_TOKEN for a value that is not a Token, TOLLGATE_INVALID_INPUT for a match another policy made. */
  decide(match: PolicyMatch, token: Token, context?: ResourceContext): Decision;
  readonly tables: PolicyTables;
  readonly options: ResolvedPolicyOptions;
}

/**
 * Binds the evaluator to tables and options; compile once, then call `authorize` per request.
 * @example
 * import { createPolicy, shippedTables } from 'tollgate';
 * const policy = createPolicy(shippedTables(), { unknownEndpoint: 'deny' });
 * const token = { kind: 'fine-grained', permissions: { issues: 'read' }, repositories: 'all' } as const;
 * policy.authorize({ method: 'GET', path: '/repos/acme/app/issues/events' }, token).allowed; // true
 */
export function createPolicy(tables: PolicyTables, options: PolicyOptions = {}): Policy {
  const resolved = resolvePolicyOptions(options);
  const names = resolved.headerNames;
  const masks = scopeMasks(tables);
  const repoMask = masks?.get('repo') ?? 0;
  const slugIndex = slugIndexes(tables);
  const plans: readonly EntryPlan[] = tables.endpoints.map((entry) =>
    planEntry(entry, resolved, masks, slugIndex),
  );
  const readToken = createTokenReader(tables, masks);

  function headersFor(visibility: VisibilityPlan, token: TokenView): Readonly<Record<string, string>> {
    if (token.kind !== 'classic' && token.kind !== 'oauth-app') return visibility.headers;
    // Keys assigned in one fixed order, so these objects share their hidden classes.
    const headers: Record<string, string> = {};
    if (visibility.acceptedPermissionsHeader !== null)
      headers[names.acceptedPermissions] = visibility.acceptedPermissionsHeader;
    if (visibility.acceptedScopesHeader !== null)
      headers[names.acceptedOAuthScopes] = visibility.acceptedScopesHeader;
    headers[names.oauthScopes] = token.scopesHeader;
    return headers;
  }

  // Decisions are built in one place so their fields keep one order (stable JSON output).
  function decide(
    result: Outcome,
    plan: EntryPlan | null,
    visibility: VisibilityPlan | null,
    params: Readonly<Record<string, string>>,
    token: TokenView,
  ): Decision {
    return {
      allowed: result.allowed,
      status: result.status,
      reason: result.reason,
      message: result.message,
      endpoint: plan === null ? null : plan.entry.key,
      params,
      requirement: visibility === null ? NO_REQUIREMENT : visibility.requirement,
      missing: result.missing,
      addition: result.addition,
      certain: result.certain,
      headers: visibility === null ? EMPTY_HEADERS : headersFor(visibility, token),
    };
  }

  function unmatched(
    reason: 'bad_path' | 'no_match',
    detail: string,
    method: string,
    token: TokenView,
  ): Decision {
    if (reason === 'bad_path')
      return decide(outcome(false, 400, 'bad_path', `bad path: ${detail}`), null, null, NO_PARAMS, token);
    const pass = resolved.unknownEndpoint === 'pass-through';
    const message = `no endpoint \`${showText(method)} ${showText(detail)}\` in the table${pass ? '; passed through by configuration' : ''}`;
    const result = outcome(
      pass,
      pass ? 200 : 404,
      pass ? 'pass_through' : 'unknown_endpoint',
      message,
      false,
    );
    return decide(result, null, null, NO_PARAMS, token);
  }

  // A request or context whose fields cannot be read (a getter that throws, a Proxy's trap, a
  // value whose toString throws) is refused as a bad request: neither stage throws for one.
  const UNREADABLE: UnmatchedRequest = Object.freeze({
    kind: 'bad_path',
    method: '',
    detail: 'the request or its context could not be read',
  });

  function match(request: PolicyRequest): PolicyMatch {
    try {
      return matchRequest(request);
    } catch {
      return UNREADABLE;
    }
  }

  function matchRequest(request: PolicyRequest): PolicyMatch {
    // Requests come from the wire: anything that is not an object reads as empty.
    if (request === null || typeof request !== 'object') request = EMPTY_REQUEST;
    const method = methodOf(request.method);
    const path = typeof request.path === 'string' ? request.path : '';
    let found = matchRoute(tables.routes, method, path);
    // HTTP: a HEAD request is answered like the GET of the same resource, without a body.
    if (found.kind === 'no_match' && method === 'HEAD') found = matchRoute(tables.routes, 'GET', path);
    if (found.kind === 'bad_path') return { kind: 'bad_path', method, detail: found.message };
    if (found.kind === 'no_match') return { kind: 'no_match', method, detail: path.split('?')[0]! };
    return {
      kind: 'endpoint',
      entry: plans[found.route]!.entry,
      params: found.params,
      method,
      // \`null\` is how many header readers say "not sent": treated as absent.
      apiVersion: request.apiVersion ?? null,
      route: found.route,
    };
  }

  function decideMatch(matched: PolicyMatch, token: Token, context: ResourceContext = {}): Decision {
    const view = readToken(token);
    if (matched.kind !== 'endpoint') return unmatched(matched.kind, matched.detail, matched.method, view);
    const plan = plans[matched.route];
    if (plan === undefined || plan.entry !== matched.entry)
      throw new TollgateError(
        'TOLLGATE_INVALID_INPUT',
        `policy.decide: the match of \`${matched.entry.key}\` was made by another policy; match the request with this one`,
      );
    try {
      return evaluate(matched, plan, view, context);
    } catch {
      return unmatched('bad_path', UNREADABLE.detail, '', view);
    }
  }

  function authorize(request: PolicyRequest, token: Token, context: ResourceContext = {}): Decision {
    return decideMatch(match(request), token, context);
  }

  function evaluate(
    matched: EndpointMatch,
    plan: EntryPlan,
    view: TokenView,
    context: ResourceContext,
  ): Decision {
    // Contexts come from the server: anything that is not an object reads as empty.
    if (context === null || typeof context !== 'object') context = {};
    const visibility =
      context.visibility !== 'public' && !plan.entry.resourceless ? plan.private : plan.public;
    const apiVersion = matched.apiVersion;
    if (apiVersion !== null && !resolved.apiVersions.has(apiVersion)) {
      const message = `unsupported API version \`${showText(String(apiVersion))}\`; supported: ${[...resolved.apiVersions].join(', ')}`;
      return decide(
        outcome(false, 400, 'unsupported_api_version', message),
        plan,
        visibility,
        matched.params,
        view,
      );
    }
    return decide(
      evaluateEndpoint(plan, matched.params, view, context, repoMask),
      plan,
      visibility,
      matched.params,
      view,
    );
  }

  return { authorize, match, decide: decideMatch, tables, options: resolved };
}

/** The policy evaluator: one request, one token, one context in; one Decision out. Pure. */
// Hot path: every request runs through here; `npm run bench` guards it.
import { TollgateError } from '../core/errors.js';
import { showText } from '../core/show-text.js';
import { BAD_PATH, located, locateRoute, NO_ROUTE } from '../routes/locate-route.js';
import { type EntryPlan, planEntry, scopeMasks, type VisibilityPlan } from './entry-plan.js';
import { evaluateEndpoint } from './evaluate-endpoint.js';
import { type Outcome, outcome } from './outcome.js';
import type { PolicyMatch, UnmatchedRequest } from './policy-match.js';
import { type PolicyOptions, type ResolvedPolicyOptions, resolvePolicyOptions } from './policy-options.js';
import type { PolicyTables } from './tables.js';
import { createTokenReader, slugIndexes, type TokenView } from './token-view.js';
import type { Decision, PolicyRequest, ResourceContext, Token } from './types.js';

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze(Object.create(null));
const EMPTY_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
const NO_REQUIREMENT = Object.freeze({ fineGrained: null, classic: null });
const EMPTY_REQUEST: PolicyRequest = Object.freeze({ method: '', path: '' });
const NO_CONTEXT: ResourceContext = Object.freeze({});
const ASCII_LETTERS = /^[A-Za-z]+$/;

// Methods fold case in ASCII only: Unicode upper-casing would turn `poſt` into POST. The table's
// own methods (as servers pass them) are answered first by comparison: such strings are usually
// internalized, so each compare is one identity check. Under callgrind over the bench mix, the Set
// lookup this replaces cost ~90 instructions per request, a loop over the characters more.
function methodOf(given: unknown): string {
  if (typeof given !== 'string') return '';
  switch (given) {
    case 'GET':
    case 'POST':
    case 'PUT':
    case 'PATCH':
    case 'DELETE':
    case 'HEAD':
    case 'OPTIONS':
      return given;
  }
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
  // Few versions (one by default): compared in a loop, a string equal by identity in one step,
  // where the Set's hash lookup cost more per request that sends one.
  const apiVersions: readonly string[] = [...resolved.apiVersions];
  function supported(version: string): boolean {
    for (let i = 0; i < apiVersions.length; i++) if (apiVersions[i] === version) return true;
    return false;
  }

  // Only a classic or OAuth app token's answer carries headers of its own (its scopes). Called
  // only for those: while it was also the function that returned the shared headers of every other
  // token, V8 inlined it into `decide` and every decision paid for this object's 56 bytes
  // (sampling heap profiler over the bench mix: 168 bytes per allowed decision, 112 after).
  function scopedHeaders(visibility: VisibilityPlan, token: TokenView): Readonly<Record<string, string>> {
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
      headers:
        visibility === null
          ? EMPTY_HEADERS
          : token.kind !== 'classic' && token.kind !== 'oauth-app'
            ? visibility.headers
            : scopedHeaders(visibility, token),
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
  const UNREADABLE_REQUEST = -3;

  // What the last locate read besides its answer (`located` holds the route's params or the bad
  // path's message): copied out right after each call, before any caller code (a token's getter)
  // could run another.
  let lastMethod = '';
  let lastPath = '';
  let lastApiVersion: string | null = null;

  // The first stage without its answer object: a route index, NO_ROUTE, BAD_PATH or UNREADABLE_REQUEST.
  function locate(request: PolicyRequest): number {
    try {
      // Requests come from the wire: anything that is not an object reads as empty.
      if (request === null || typeof request !== 'object') request = EMPTY_REQUEST;
      const method = methodOf(request.method);
      const path = typeof request.path === 'string' ? request.path : '';
      lastMethod = method;
      lastPath = path;
      let route = locateRoute(tables.routes, method, path);
      // HTTP: a HEAD request is answered like the GET of the same resource, without a body.
      if (route === NO_ROUTE && method === 'HEAD') route = locateRoute(tables.routes, 'GET', path);
      // \`null\` is how many header readers say "not sent": treated as absent.
      if (route >= 0) lastApiVersion = request.apiVersion ?? null;
      return route;
    } catch {
      return UNREADABLE_REQUEST;
    }
  }

  // The unmatched request locate's negative answer stands for.
  function unmatchedOf(route: number): UnmatchedRequest {
    if (route === UNREADABLE_REQUEST) return UNREADABLE;
    if (route === BAD_PATH) return { kind: 'bad_path', method: lastMethod, detail: located.message };
    return { kind: 'no_match', method: lastMethod, detail: lastPath.split('?')[0]! };
  }

  function match(request: PolicyRequest): PolicyMatch {
    const route = locate(request);
    if (route < 0) return unmatchedOf(route);
    return {
      kind: 'endpoint',
      entry: plans[route]!.entry,
      params: located.params,
      method: lastMethod,
      apiVersion: lastApiVersion,
      route,
    };
  }

  function decideMatch(matched: PolicyMatch, token: Token, context: ResourceContext = NO_CONTEXT): Decision {
    const view = readToken(token);
    if (matched.kind !== 'endpoint') return unmatched(matched.kind, matched.detail, matched.method, view);
    const plan = plans[matched.route];
    if (plan === undefined || plan.entry !== matched.entry)
      throw new TollgateError(
        'TOLLGATE_INVALID_INPUT',
        `policy.decide: the match of \`${matched.entry.key}\` was made by another policy; match the request with this one`,
      );
    return evaluate(plan, matched.params, matched.apiVersion, view, context);
  }

  // decide(match(request)) without the match's object: the stages' values carried in locals.
  function authorize(request: PolicyRequest, token: Token, context: ResourceContext = NO_CONTEXT): Decision {
    const route = locate(request);
    if (route < 0) {
      const unknown = unmatchedOf(route);
      return unmatched(unknown.kind, unknown.detail, unknown.method, readToken(token));
    }
    const params = located.params;
    const apiVersion = lastApiVersion;
    return evaluate(plans[route]!, params, apiVersion, readToken(token), context);
  }

  function evaluate(
    plan: EntryPlan,
    params: Readonly<Record<string, string>>,
    apiVersion: string | null,
    view: TokenView,
    context: ResourceContext,
  ): Decision {
    try {
      // Contexts come from the server: anything that is not an object reads as empty.
      if (context === null || typeof context !== 'object') context = NO_CONTEXT;
      const visibility =
        context.visibility !== 'public' && !plan.entry.resourceless ? plan.private : plan.public;
      if (apiVersion !== null && !supported(apiVersion)) {
        const message = `unsupported API version \`${showText(String(apiVersion))}\`; supported: ${[...resolved.apiVersions].join(', ')}`;
        return decide(
          outcome(false, 400, 'unsupported_api_version', message),
          plan,
          visibility,
          params,
          view,
        );
      }
      return decide(evaluateEndpoint(plan, params, view, context, repoMask), plan, visibility, params, view);
    } catch {
      return unmatched('bad_path', UNREADABLE.detail, '', view);
    }
  }

  return { authorize, match, decide: decideMatch, tables, options: resolved };
}

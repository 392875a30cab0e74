/** The policy evaluator: one request, one token, one context in; one Decision out. Pure. */
// Hot path: every request runs through here; `npm run bench` guards it.

import { TollgateError } from '../errors.js';
import { evaluateEndpoint, NOTHING, type Outcome } from './evaluate-endpoint.js';
import { type PolicyOptions, type ResolvedPolicyOptions, resolvePolicyOptions } from './policy-options.js';
import { matchRoute } from './route-tree.js';
import type { EndpointEntry, PolicyTables } from './tables.js';
import type { Decision, PolicyRequest, ResourceContext, Token } from './types.js';
import { TOKEN_KINDS } from './types.js';

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze(Object.create(null));
const EMPTY_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
const KINDS: ReadonlySet<string> = new Set(TOKEN_KINDS);

/** An evaluator bound to its tables and options. */
export interface Policy {
  /** Decides one request. Never throws for any request or context; throws TOLLGATE_INVALID_TOKEN for a value that is not a Token. */
  authorize(request: PolicyRequest, token: Token, context?: ResourceContext): Decision;
  readonly tables: PolicyTables;
  readonly options: ResolvedPolicyOptions;
}

/**
 * Binds the evaluator to tables and options; compile once, then call `authorize` per request.
 * @example
 * import { createPolicy, loadShippedTables } from 'tollgate';
 * const policy = createPolicy(loadShippedTables(), { unknownEndpoint: 'deny' });
 * policy.authorize({ method: 'GET', path: '/repos/acme/app/issues/events' }, { kind: 'fine-grained', permissions: { issues: 'read' }, repositories: 'all' });
 */
export function createPolicy(tables: PolicyTables, options: PolicyOptions = {}): Policy {
  const resolved = resolvePolicyOptions(options);
  const names = resolved.headerNames;

  function headersFor(entry: EndpointEntry, token: Token, isPrivate: boolean): Record<string, string> {
    const headers: Record<string, string> = {};
    if (entry.acceptedPermissionsHeader !== null)
      headers[names.acceptedPermissions] = entry.acceptedPermissionsHeader;
    const accepted = isPrivate ? entry.acceptedScopesPrivateHeader : entry.acceptedScopesHeader;
    if (accepted !== null) headers[names.acceptedOAuthScopes] = accepted;
    if (token.kind === 'classic' || token.kind === 'oauth-app')
      headers[names.oauthScopes] = token.scopes.join(', ');
    return headers;
  }

  // Decisions are built in one place so their fields keep one order (stable JSON output).
  function decide(
    outcome: Outcome,
    entry: EndpointEntry | null,
    params: Readonly<Record<string, string>>,
    token: Token,
    isPrivate: boolean,
  ): Decision {
    const classic = entry === null ? null : isPrivate ? entry.classicPrivate : entry.classic;
    return {
      allowed: outcome.allowed,
      status: outcome.status,
      reason: outcome.reason,
      message: outcome.message,
      endpoint: entry === null ? null : entry.key,
      params,
      requirement: {
        fineGrained: entry === null ? null : entry.fineGrained,
        classic: classic === null ? null : classic.requirement,
      },
      missing: outcome.missing ?? [],
      addition: outcome.addition ?? NOTHING,
      certain: outcome.certain ?? true,
      headers: entry === null ? EMPTY_HEADERS : headersFor(entry, token, isPrivate),
    };
  }

  function authorize(request: PolicyRequest, token: Token, context: ResourceContext = {}): Decision {
    if (token === null || typeof token !== 'object' || !KINDS.has(token.kind))
      throw new TollgateError(
        'TOLLGATE_INVALID_TOKEN',
        `authorize: invalid token kind \`${String((token as { kind?: unknown } | null)?.kind)}\`; valid kinds: ${[...KINDS].join(', ')}`,
      );
    const method = typeof request.method === 'string' ? request.method.toUpperCase() : '';
    const path = typeof request.path === 'string' ? request.path : '';
    let match = matchRoute(tables.routes, method, path);
    // HTTP: a HEAD request is answered like the GET of the same resource, without a body.
    if (match.kind === 'no_match' && method === 'HEAD') match = matchRoute(tables.routes, 'GET', path);
    if (match.kind === 'bad_path')
      return decide(
        { allowed: false, status: 400, reason: 'bad_path', message: `bad path: ${match.message}` },
        null,
        NO_PARAMS,
        token,
        true,
      );
    if (match.kind === 'no_match') {
      const pass = resolved.unknownEndpoint === 'pass-through';
      const message = `no endpoint \`${method} ${String(request.path).split('?')[0]}\` in the table${pass ? '; passed through by configuration' : ''}`;
      return decide(
        {
          allowed: pass,
          status: pass ? 200 : 404,
          reason: pass ? 'pass_through' : 'unknown_endpoint',
          message,
          certain: false,
        },
        null,
        NO_PARAMS,
        token,
        true,
      );
    }
    const entry = tables.endpoints[match.route]!;
    const isPrivate = context.visibility !== 'public' && !entry.resourceless;
    if (request.apiVersion !== undefined && !resolved.apiVersions.has(request.apiVersion)) {
      const message = `unsupported API version \`${request.apiVersion}\`; supported: ${[...resolved.apiVersions].join(', ')}`;
      return decide(
        { allowed: false, status: 400, reason: 'unsupported_api_version', message },
        entry,
        match.params,
        token,
        isPrivate,
      );
    }
    return decide(
      evaluateEndpoint(entry, match.params, token, context, tables, resolved),
      entry,
      match.params,
      token,
      isPrivate,
    );
  }

  return { authorize, tables, options: resolved };
}

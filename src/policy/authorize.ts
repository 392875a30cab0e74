/** The policy evaluator: one request, one token, one context in; one Decision out. Pure. */
// Hot path: every request runs through here; `npm run bench` guards it.

import { TollgateError } from '../errors.js';
import { type PolicyOptions, type ResolvedPolicyOptions, resolvePolicyOptions } from './policy-options.js';
import {
  missingPermissions,
  missingScopes,
  permissionsMeet,
  scopesMeet,
  smallestMissing,
} from './requirement.js';
import { matchRoute } from './route-tree.js';
import { heldScopes } from './scope-closure.js';
import type { EndpointEntry, PolicyTables } from './tables.js';
import type {
  Addition,
  Decision,
  Level,
  PermissionToken,
  PolicyRequest,
  ReasonCode,
  Requirement,
  ResourceContext,
  ScopeRequirement,
  Token,
} from './types.js';
import { TOKEN_KINDS } from './types.js';

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze(Object.create(null));
const NOTHING: Addition = Object.freeze({ kind: 'none' });
const EMPTY_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
const KINDS: ReadonlySet<string> = new Set(TOKEN_KINDS);

/** An evaluator bound to its tables and options. */
export interface Policy {
  /** Decides one request. Never throws for any request or context; throws TOLLGATE_INVALID_TOKEN for a value that is not a Token. */
  authorize(request: PolicyRequest, token: Token, context?: ResourceContext): Decision;
  readonly tables: PolicyTables;
  readonly options: ResolvedPolicyOptions;
}

interface Outcome {
  readonly allowed: boolean;
  readonly status: number;
  readonly reason: ReasonCode;
  readonly message: string;
  readonly missing?: Requirement | ScopeRequirement;
  readonly addition?: Addition;
  readonly certain?: boolean;
}

function sameRepository(selected: readonly string[], owner: string, repo: string): boolean {
  const wanted = `${owner}/${repo}`.toLowerCase();
  for (const name of selected) if (name.toLowerCase() === wanted) return true;
  return false;
}

function describe(requirement: Readonly<Record<string, Level>> | readonly string[]): string {
  return Array.isArray(requirement)
    ? requirement.map((scope) => `\`${scope}\``).join(' and ')
    : Object.entries(requirement)
        .map(([slug, level]) => `\`${slug}=${level}\``)
        .join(' and ');
}

/**
 * Binds the evaluator to tables and options; compile once, then call `authorize` per request.
 * @example
 * import { createPolicy, loadShippedTables } from 'tollgate';
 * const policy = createPolicy({ tables: loadShippedTables() });
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

  function evaluate(
    entry: EndpointEntry,
    params: Readonly<Record<string, string>>,
    token: Token,
    context: ResourceContext,
  ): Outcome {
    // A path that names no resource (GET /rate_limit) has no visibility to hide behind.
    const isPrivate = context.visibility !== 'public' && !entry.resourceless;
    const servesPublic = entry.public && !isPrivate;
    const what = `\`${entry.key}\``;

    if (token.kind === 'anonymous' || token.kind === 'client-credentials') {
      if (servesPublic)
        return {
          allowed: true,
          status: 200,
          reason: 'public_resource',
          message: `${what} serves public data without authentication`,
        };
      if (entry.public)
        return {
          allowed: false,
          status: 404,
          reason: 'not_found',
          message: `the resource is private: ${what} answers 404 to callers without a token`,
        };
      if (token.kind === 'anonymous')
        return {
          allowed: false,
          status: 401,
          reason: 'authentication_required',
          message: `${what} requires authentication`,
        };
      return {
        allowed: false,
        status: 403,
        reason: 'token_kind_not_accepted',
        message: `client credentials reach public data only; ${what} serves none`,
      };
    }

    const kind =
      token.kind === 'workflow' && resolved.workflowToken === 'app-installation'
        ? 'app-installation'
        : token.kind;
    const scoped = token.kind === 'classic' || token.kind === 'oauth-app';
    const classic = isPrivate ? entry.classicPrivate : entry.classic;
    const reachable = scoped ? !(classic.shown && classic.requirement === null) : entry.fineGrained !== null;
    if (token.kind === 'workflow' && resolved.workflowToken === 'deny')
      return {
        allowed: false,
        status: 403,
        reason: 'token_kind_not_accepted',
        message: `the workflow token is refused by configuration (workflowToken: deny)`,
      };
    if (!entry.tokens.includes(kind) || !reachable)
      return {
        allowed: false,
        status: 403,
        reason: 'token_kind_not_accepted',
        message: `${what} does not accept ${token.kind} tokens (accepted: ${entry.tokens.join(', ') || 'none'})`,
      };

    if (servesPublic)
      return {
        allowed: true,
        status: 200,
        reason: 'public_resource',
        message: `${what} serves public data without permissions`,
      };

    const repoParams = entry.repositoryParams;
    if (isPrivate && repoParams !== null) {
      const owner = params[repoParams[0]] ?? '';
      const repo = params[repoParams[1]] ?? '';
      const hidden = scoped
        ? !heldScopes((token as { scopes: readonly string[] }).scopes, tables.scopeClosure).has('repo')
        : (token as PermissionToken).repositories !== 'all' &&
          !sameRepository((token as PermissionToken).repositories as readonly string[], owner, repo);
      if (hidden)
        return {
          allowed: false,
          status: 404,
          reason: 'not_found',
          message: scoped
            ? `the private repository \`${owner}/${repo}\` is invisible to a classic token without \`repo\``
            : `the private repository \`${owner}/${repo}\` is not in the token's repository selection`,
          addition: scoped ? { kind: 'scopes', scopes: ['repo'] } : NOTHING,
        };
    }

    if (entry.ownerOnly && context.organizationOwner !== true)
      return {
        allowed: false,
        status: 403,
        reason: 'organization_owner_required',
        message: `${what} is for organization owners only`,
      };

    if (scoped) {
      const certain = !entry.additional;
      if (classic.requirement === null) {
        const allowed = resolved.unshownScopes === 'allow';
        return {
          allowed,
          status: allowed ? 200 : 403,
          reason: allowed ? 'allowed' : 'requirement_not_shown',
          message: `the classic scopes ${what} needs are not shown by the specification${allowed ? '; allowed by configuration (unshownScopes: allow)' : '; state them in an overlay'}`,
          certain: false,
        };
      }
      const held = heldScopes((token as { scopes: readonly string[] }).scopes, tables.scopeClosure);
      if (scopesMeet(classic.requirement, held))
        return {
          allowed: true,
          status: 200,
          reason: 'allowed',
          message: `the token's scopes meet ${what}`,
          certain,
        };
      const missing = missingScopes(classic.requirement, held);
      const smallest = smallestMissing(missing);
      return {
        allowed: false,
        status: 403,
        reason: 'insufficient_scope',
        message: `${what} needs ${smallest === undefined ? 'a scope no token can hold' : `scope ${missing.map(describe).join(' or ')}`}`,
        missing,
        addition: smallest === undefined ? NOTHING : { kind: 'scopes', scopes: smallest },
        certain,
      };
    }

    const requirement = entry.fineGrained!;
    const granted = (token as PermissionToken).permissions;
    const certain = !entry.additional && entry.tokensShown;
    if (permissionsMeet(requirement, granted))
      return {
        allowed: true,
        status: 200,
        reason: 'allowed',
        message: `the token's permissions meet ${what}`,
        certain,
      };
    const missing = missingPermissions(requirement, granted);
    const smallest = smallestMissing(missing);
    return {
      allowed: false,
      status: 403,
      reason: 'insufficient_permission',
      message: `${what} needs ${smallest === undefined ? 'a permission no token can hold' : `permission ${missing.map(describe).join(' or ')}`}`,
      missing,
      addition: smallest === undefined ? NOTHING : { kind: 'permissions', permissions: smallest },
      certain,
    };
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
    const match = matchRoute(tables.routes, method, typeof request.path === 'string' ? request.path : '');
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
    return decide(evaluate(entry, match.params, token, context), entry, match.params, token, isPrivate);
  }

  return { authorize, tables, options: resolved };
}

/** The checks after route matching, in DESIGN.md section 2's order: anonymous, token kind, public data, existence hiding, owner, requirement. */
// Hot path: every matched request runs through here; `npm run bench` guards it.
import type { ResolvedPolicyOptions } from './policy-options.js';
import {
  missingPermissions,
  missingScopes,
  permissionsMeet,
  scopesMeet,
  smallestMissing,
} from './requirement.js';
import { heldScopes } from './scope-closure.js';
import type { EndpointEntry, PolicyTables } from './tables.js';
import type {
  Addition,
  Level,
  PermissionToken,
  ReasonCode,
  Requirement,
  ResourceContext,
  ScopeRequirement,
  Token,
} from './types.js';

/** What the checks conclude; `authorize` turns it into a Decision. */
export interface Outcome {
  readonly allowed: boolean;
  readonly status: number;
  readonly reason: ReasonCode;
  readonly message: string;
  readonly missing?: Requirement | ScopeRequirement;
  readonly addition?: Addition;
  readonly certain?: boolean;
}

export const NOTHING: Addition = Object.freeze({ kind: 'none' });

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
 * Decides a request already matched to `entry`: pure, never throws.
 * @example
 * import { evaluateEndpoint } from 'tollgate';
 * evaluateEndpoint(entry, { owner: 'acme', repo: 'app' }, token, { visibility: 'private' }, tables, resolvePolicyOptions());
 */
export function evaluateEndpoint(
  entry: EndpointEntry,
  params: Readonly<Record<string, string>>,
  token: Token,
  context: ResourceContext,
  tables: PolicyTables,
  resolved: ResolvedPolicyOptions,
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

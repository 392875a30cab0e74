/** A caller's mix compiled once: its token as the policy reads it, each request decided as the gate decides it. */

import { leastPermissions, leastScopes, type PermissionNeed, type ScopeNeed } from '../check/least-grant.js';
import { TollgateError } from '../core/errors.js';
import type { Token } from '../core/token.js';
import { PERMISSION_KINDS, SCOPED_KINDS, type TokenKind } from '../core/token.js';
import type { LimitsIdentity } from '../limits/identity.js';
import type { Policy } from '../policy/authorize.js';
import type { CallerSpec, CallerToken } from './scenario.js';
import { SERVICE_TRAFFIC, type SimRequest, serviceRequest, tableRequest } from './sim-request.js';
import type { CallerGrant } from './simulation-report.js';

/** What the engine needs of a caller's mix. */
export interface CallerRequests {
  readonly requests: readonly SimRequest[];
  /** Cumulative shares of the weights, for drawing a request. */
  readonly cumulative: readonly number[];
  readonly grant: CallerGrant;
}

/**
 * The visibility the caller's requests see: as stated, else `public` for the kinds that can only
 * read public data (anonymous, client credentials) and `private` (the policy's default) for others.
 */
function visibilityOf(spec: CallerSpec): 'public' | 'private' {
  if (spec.visibility !== undefined) return spec.visibility;
  return spec.token.kind === 'anonymous' || spec.token.kind === 'client-credentials' ? 'public' : 'private';
}

const scoped = (kind: TokenKind) => SCOPED_KINDS.includes(kind);
const permitted = (kind: TokenKind) => PERMISSION_KINDS.includes(kind);

/** The token as the policy reads it, holding `held` (scopes or permissions by kind). */
function policyToken(token: CallerToken, held: Pick<CallerGrant, 'scopes' | 'permissions'>): Token {
  if (scoped(token.kind)) return { ...token, kind: token.kind as 'classic', scopes: held.scopes ?? [] };
  if (permitted(token.kind))
    return {
      ...token,
      kind: token.kind as 'fine-grained',
      permissions: (held.permissions ?? {}) as Record<string, 'read' | 'write'>,
      repositories: token.repositories ?? 'all',
    };
  return { ...token, kind: token.kind as 'anonymous' };
}

/**
 * The grant a token holds: as stated, or when the token states only its kind, the least grant
 * that meets what every request of the mix needs: src/check's least grant over the policy's own
 * requirements for the caller's visibility, then what the policy's decisions still say is missing
 * (a private repository a classic token sees only with `repo`), until every request is allowed or
 * nothing more would help. A kind with nothing to hold (anonymous, client credentials) holds
 * nothing, stated.
 */
function grantOf(
  spec: CallerSpec,
  policy: Policy,
  paths: readonly { method: string; path: string }[],
): CallerGrant {
  const token = spec.token;
  const context = { visibility: visibilityOf(spec) };
  const isScoped = scoped(token.kind);
  if (isScoped && token.scopes !== undefined) return { source: 'stated', scopes: [...token.scopes] };
  if (permitted(token.kind) && token.permissions !== undefined)
    return { source: 'stated', permissions: { ...token.permissions } };
  if (!isScoped && !permitted(token.kind)) return { source: 'stated' };
  const scopeNeeds: ScopeNeed[] = [];
  const permissionNeeds: PermissionNeed[] = [];
  const least = (): CallerGrant =>
    isScoped
      ? { source: 'derived', scopes: leastScopes(scopeNeeds, policy.tables) }
      : { source: 'derived', permissions: leastPermissions(permissionNeeds) };
  for (const request of paths) {
    const { requirement } = policy.authorize(request, policyToken(token, {}), context);
    if (isScoped && requirement.classic !== null) scopeNeeds.push(requirement.classic);
    if (!isScoped && requirement.fineGrained !== null) permissionNeeds.push(requirement.fineGrained);
  }
  // Each round adds at least one need or stops: bounded by the requests of the mix.
  for (let round = 0; round <= paths.length; round++) {
    const grant = least();
    let added = false;
    for (const request of paths) {
      const { allowed, addition } = policy.authorize(request, policyToken(token, grant), context);
      if (allowed) continue;
      if (addition.kind === 'scopes' && isScoped) {
        scopeNeeds.push([addition.scopes]);
        added = true;
      } else if (addition.kind === 'permissions' && !isScoped) {
        permissionNeeds.push([addition.permissions]);
        added = true;
      }
    }
    if (!added) return grant;
  }
  return least();
}

/**
 * Every request of the caller's mix (weight above 0) with the policy's decision for its token and
 * visibility (a pure function of those: decided once per caller and request, as the gate would
 * decide each time), and the grant the token holds.
 * @example
 * // callerRequests(spec, identity, policy) -> { requests: [...], cumulative: [0.5, 1], grant: { source: 'derived', permissions: { issues: 'read' } } }
 */
export function callerRequests(spec: CallerSpec, identity: LimitsIdentity, policy: Policy): CallerRequests {
  const weighted = spec.mix.filter((item) => item.weight > 0);
  const entries = new Map(policy.tables.endpoints.map((entry) => [entry.key, entry]));
  const tableEntries = weighted.flatMap((item) => {
    const entry = entries.get(item.endpoint);
    return entry === undefined ? [] : [entry];
  });
  const grant = grantOf(
    spec,
    policy,
    tableEntries.map((entry) => tableRequest(entry, identity, null)),
  );
  const token = policyToken(spec.token, grant);
  const context = { visibility: visibilityOf(spec) };
  const requests = weighted.map((item) => {
    const entry = entries.get(item.endpoint);
    if (entry === undefined) {
      if (SERVICE_TRAFFIC[item.endpoint] !== undefined) return serviceRequest(item.endpoint, identity);
      throw new TollgateError(
        'TOLLGATE_INVALID_INPUT',
        `simulate: no endpoint \`${item.endpoint}\` in the table`,
      );
    }
    const bare = tableRequest(entry, identity, null);
    // As the gate does: matched once, decided once (the decision is a pure function of the
    // token and visibility, so it holds for every request of this caller to this endpoint).
    const matched = policy.match({ method: bare.method, path: bare.path });
    // INVARIANT: the placeholder path matches its own template (static segments win elsewhere).
    if (matched.kind !== 'endpoint' || matched.entry !== entry)
      throw new TollgateError(
        'TOLLGATE_INVALID_INPUT',
        `simulate: \`${bare.path}\` matched \`${matched.kind === 'endpoint' ? matched.entry.key : matched.kind}\`, not \`${entry.key}\``,
      );
    return tableRequest(entry, identity, policy.decide(matched, token, context));
  });
  const total = weighted.reduce((sum, item) => sum + item.weight, 0);
  let running = 0;
  const cumulative = weighted.map((item) => (running += item.weight / total));
  return { requests, cumulative, grant };
}

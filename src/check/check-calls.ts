/** Judges an application's calls for a token (or a token kind): each call's Decision, the least grant, what is unused. */
import {
  type Decision,
  heldScopes,
  type Level,
  PERMISSION_KINDS,
  type Policy,
  permissionsMeet,
  scopesMeet,
  type Token,
  type TokenKind,
} from '../policy/index.js';
import type { Call } from './call.js';
import { leastPermissions, leastScopes, type PermissionNeed, type ScopeNeed } from './least-grant.js';

/** What became of one call. */
export type Verdict = 'allowed' | 'denied' | 'never' | 'uncertain' | 'unresolved';

export interface CallResult {
  readonly call: Call;
  readonly verdict: Verdict;
  /** The Decision for the token (or the least grant); null for an unresolved call. */
  readonly decision: Decision | null;
  /** Why the call is uncertain, never callable or denied, in one line. */
  readonly note: string | null;
}

/** The permissions (fine-grained kinds) or scopes (classic kinds) of a grant. */
export type Grant =
  | { readonly kind: 'permissions'; readonly permissions: Readonly<Record<string, Level>> }
  | { readonly kind: 'scopes'; readonly scopes: readonly string[] };

export interface CheckReport {
  readonly tokenKind: TokenKind;
  readonly results: readonly CallResult[];
  /** The least grant that allows every call this kind can make. */
  readonly grant: Grant;
  /** What the token holds that no call needs (a permission, or a level above what is needed); null without a token. */
  readonly unused: readonly string[] | null;
  readonly counts: Readonly<Record<Verdict, number>>;
  /** True when no call is denied or never callable (and, under `strict`, none is uncertain or unresolved). */
  readonly sufficient: boolean;
  readonly strict: boolean;
}

export interface CheckOptions {
  readonly policy: Policy;
  /** The token to judge; without one, only the least grant for `kind`. */
  readonly token?: Token;
  readonly kind?: TokenKind;
  /** Uncertain and unresolved calls count as failures. */
  readonly strict?: boolean;
}

const isPermissionKind = (kind: TokenKind) => (PERMISSION_KINDS as readonly string[]).includes(kind);

function emptyToken(kind: TokenKind): Token {
  if (kind === 'classic' || kind === 'oauth-app') return { kind, scopes: [] };
  if (kind === 'anonymous' || kind === 'client-credentials') return { kind };
  return { kind, permissions: {}, repositories: 'all' };
}

function grantToken(kind: TokenKind, grant: Grant): Token {
  if (grant.kind === 'scopes') return { kind: kind as 'classic', scopes: [...grant.scopes] };
  if (!isPermissionKind(kind)) return emptyToken(kind);
  return { kind: kind as 'fine-grained', permissions: { ...grant.permissions }, repositories: 'all' };
}

/**
 * Checks `calls`: the least grant for the token's kind first (from each call's requirement), then
 * every call judged with the token (repositories taken as `all`: check judges permissions, not the
 * repository selection) or, without one, with the least grant. Calls to an owner-only endpoint are
 * judged as if the caller owns the organization, and flagged uncertain.
 * @example
 * import { createPolicy, shippedTables } from 'tollgate';
 * import { checkCalls } from './check-calls.js';
 * const calls = [{ method: 'GET', path: '/repos/{owner}/{repo}/issues/events', origin: { file: 'calls.txt', line: 1, column: 1 }, resolved: true }];
 * checkCalls(calls, { policy: createPolicy(shippedTables()), kind: 'fine-grained' }).grant;
 * // { kind: 'permissions', permissions: { issues: 'read' } }
 */
export function checkCalls(calls: readonly Call[], options: CheckOptions): CheckReport {
  const { policy, token } = options;
  const kind = token?.kind ?? options.kind ?? 'fine-grained';
  const strict = options.strict === true;
  const empty = emptyToken(kind);
  const permissionNeeds: PermissionNeed[] = [];
  const scopeNeeds: ScopeNeed[] = [];
  const contextOf = (call: Call) => ({ visibility: call.visibility ?? 'private', organizationOwner: true });
  const requestOf = (call: Call) => ({ method: call.method, path: call.path });

  // What each call needs of this kind, from a token that holds nothing.
  const judged = calls.map((call) => {
    if (!call.resolved) return { call, bare: null };
    const bare = policy.authorize(requestOf(call), empty, contextOf(call));
    if (bare.endpoint !== null && !bare.allowed) {
      if (bare.reason === 'insufficient_permission' && bare.requirement.fineGrained !== null)
        permissionNeeds.push(bare.requirement.fineGrained);
      if (bare.reason === 'insufficient_scope' && bare.requirement.classic !== null)
        scopeNeeds.push(bare.requirement.classic);
      // A private repository hides from a classic token without `repo`, unless it meets the endpoint's own scopes.
      if (bare.reason === 'not_found' && (kind === 'classic' || kind === 'oauth-app'))
        scopeNeeds.push(bare.requirement.classic ?? [['repo']]);
    }
    return { call, bare };
  });
  const grant: Grant =
    kind === 'classic' || kind === 'oauth-app'
      ? { kind: 'scopes', scopes: leastScopes(scopeNeeds, policy.tables) }
      : { kind: 'permissions', permissions: isPermissionKind(kind) ? leastPermissions(permissionNeeds) : {} };
  const judge: Token =
    token === undefined
      ? grantToken(kind, grant)
      : 'repositories' in token
        ? { ...token, repositories: 'all' }
        : token;

  const results: CallResult[] = judged.map(({ call, bare }) => {
    if (bare === null)
      return {
        call,
        verdict: 'unresolved',
        decision: null,
        note: 'the route is not a literal: not resolved',
      };
    const decision = policy.authorize(requestOf(call), judge, contextOf(call));
    if (decision.reason === 'bad_path' || decision.reason === 'unknown_endpoint')
      return { call, verdict: 'uncertain', decision, note: decision.message };
    if (bare.reason === 'token_kind_not_accepted')
      return { call, verdict: 'never', decision, note: bare.message };
    if (!decision.allowed && decision.reason !== 'requirement_not_shown')
      return { call, verdict: 'denied', decision, note: decision.message };
    if (decision.reason === 'requirement_not_shown' || !decision.certain)
      return {
        call,
        verdict: 'uncertain',
        decision,
        note:
          decision.reason === 'requirement_not_shown'
            ? decision.message
            : `${decision.endpoint} is not certain: the seeds mark it, or do not show all it needs`,
      };
    const entry = policy.tables.endpoints.find((e) => e.key === decision.endpoint);
    if (entry?.ownerOnly === true)
      return {
        call,
        verdict: 'uncertain',
        decision,
        note: `${decision.endpoint} is for organization owners only`,
      };
    return { call, verdict: 'allowed', decision, note: null };
  });

  const counts: Record<Verdict, number> = { allowed: 0, denied: 0, never: 0, uncertain: 0, unresolved: 0 };
  for (const result of results) counts[result.verdict]++;
  return {
    tokenKind: kind,
    results,
    grant,
    unused: token === undefined ? null : unusedGrants(token, permissionNeeds, scopeNeeds, policy),
    counts,
    sufficient: counts.denied + counts.never + (strict ? counts.uncertain + counts.unresolved : 0) === 0,
    strict,
  };
}

/**
 * What a token holds that no need requires: each scope or permission whose removal (or, for
 * `write`, lowering to `read`) leaves every need as met as it was.
 */
function unusedGrants(
  token: Token,
  permissionNeeds: readonly PermissionNeed[],
  scopeNeeds: readonly ScopeNeed[],
  policy: Policy,
): string[] {
  if ('scopes' in token) {
    const closure = policy.tables.scopeClosure;
    const met = (scopes: readonly string[]) => {
      const held = heldScopes(scopes, closure);
      return scopeNeeds.map((need) => scopesMeet(need, held));
    };
    const now = met(token.scopes);
    const same = (other: boolean[]) => other.every((value, i) => value === now[i]);
    // One at a time, each removal kept before the next is tried: two scopes that can stand in for
    // each other are not both unused.
    let kept = [...token.scopes];
    const unused: string[] = [];
    for (const scope of token.scopes) {
      const without = kept.filter((s) => s !== scope);
      if (same(met(without))) {
        unused.push(scope);
        kept = without;
      }
    }
    return unused;
  }
  if (!('permissions' in token)) return [];
  const granted = token.permissions;
  const met = (candidate: Readonly<Record<string, Level>>) =>
    permissionNeeds.map((need) => permissionsMeet(need, candidate));
  const now = met(granted);
  const same = (other: boolean[]) => other.every((value, i) => value === now[i]);
  const unused: string[] = [];
  // One at a time, keeping each removal (or lowering) before trying the next: of two permissions
  // that stand in for each other, one is needed.
  let kept: Record<string, Level> = { ...granted };
  for (const [slug, level] of Object.entries(granted)) {
    const { [slug]: _, ...without } = kept;
    if (same(met(without))) {
      unused.push(`${slug}=${level}`);
      kept = without;
    } else if (level === 'write' && same(met({ ...without, [slug]: 'read' }))) {
      unused.push(`${slug}=write (read suffices)`);
      kept = { ...without, [slug]: 'read' };
    }
  }
  return unused;
}

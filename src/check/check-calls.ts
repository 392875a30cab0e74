/** Judges an application's calls for a token (or a token kind): each call's Decision, the least grant, what is unused. */
import { type Level, PERMISSION_KINDS, type Token, type TokenKind } from '../core/token.js';
import type { Policy } from '../policy/authorize.js';
import type { Call } from './call.js';
import { type CallResult, NOT_JUDGED, notJudgedBeforehand, type Verdict, verdictOf } from './judge-call.js';
import { leastPermissions, leastScopes, type PermissionNeed, type ScopeNeed } from './least-grant.js';
import { unusedGrants } from './unused-grants.js';
import type { WorkflowAdvice } from './workflow-advice.js';

export type { CallResult, Verdict } from './judge-call.js';

/** The permissions (fine-grained kinds) or scopes (classic kinds) of a grant. */
export type Grant =
  | { readonly kind: 'permissions'; readonly permissions: Readonly<Record<string, Level>> }
  | { readonly kind: 'scopes'; readonly scopes: readonly string[] };

export interface CheckReport {
  readonly tokenKind: TokenKind;
  readonly results: readonly CallResult[];
  /** The least grant that allows every judged call this kind can make. */
  readonly grant: Grant;
  /** The calls the grant leaves out because they were not judged (unresolved, outside the table, GraphQL): the grant is partial when any. */
  readonly leftOut: readonly CallResult[];
  /** What the token holds that no call needs (a permission, or a level above what is needed); null without a token. */
  readonly unused: readonly string[] | null;
  readonly counts: Readonly<Record<Verdict, number>>;
  /**
   * True when every call was judged and none is denied or never callable (and, under `strict`, none
   * is uncertain). Never true while a call is not judged.
   */
  readonly sufficient: boolean;
  /**
   * What the run answers (the CLI's exit 0): `sufficient`, or, under `allowUnjudged`, sufficient
   * for every call that was judged.
   */
  readonly passed: boolean;
  readonly strict: boolean;
  readonly allowUnjudged: boolean;
  /** Permissions some call needs that a token of this kind cannot hold (`slug=level`). */
  readonly cannotHold: readonly string[];
  /** The job the report is for, or null. */
  readonly job: string | null;
  /** How the token is named in reports: its kind, or what stands for it. */
  readonly tokenLabel: string;
  /** For a workflow job judged with its workflow token: the blocks and advice in workflow keys. */
  readonly workflow?: WorkflowAdvice;
}

export interface CheckOptions {
  readonly policy: Policy;
  /** The token to judge; without one, only the least grant for `kind`. */
  readonly token?: Token;
  readonly kind?: TokenKind;
  /** Uncertain calls count as failures. */
  readonly strict?: boolean;
  /** Calls that were not judged are a warning, not a failure (`sufficient` stays false). */
  readonly allowUnjudged?: boolean;
  /**
   * What a token of this kind can hold at all (the workflow token: only what a `permissions:` key
   * grants). A call whose every alternative needs something it cannot hold is never callable with
   * it, and the note names `alternative`.
   */
  readonly holds?: {
    readonly canHold: (slug: string, level: Level) => boolean;
    readonly token: string;
    readonly alternative: string;
  };
  /** The workflow job (or other group) the report is for, named in every format. */
  readonly job?: string;
  /** How the token is named in reports (default: its kind), e.g. `kind not given`. */
  readonly tokenLabel?: string;
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

/** Counts per verdict, every verdict present. */
export function countVerdicts(results: readonly CallResult[]): Record<Verdict, number> {
  const counts: Record<Verdict, number> = {
    allowed: 0,
    denied: 0,
    never: 0,
    uncertain: 0,
    unresolved: 0,
    unjudged: 0,
  };
  for (const result of results) counts[result.verdict]++;
  return counts;
}

/**
 * Checks `calls`: the least grant for the token's kind first (from each call's requirement), then
 * every call judged with the token (repositories taken as `all`: check judges permissions, not the
 * repository selection) or, without one, with the least grant. Calls to an owner-only endpoint are
 * judged as if the caller owns the organization, and flagged uncertain. Unresolved calls, GraphQL
 * calls and calls outside the table are not judged: they are listed, left out of the grant (which
 * then says it is partial), and `sufficient` is false.
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
  const allowUnjudged = options.allowUnjudged === true;
  const empty = emptyToken(kind);
  const permissionNeeds: PermissionNeed[] = [];
  const scopeNeeds: ScopeNeed[] = [];
  const unholdable = new Map<Call, PermissionNeed>();
  const { holds } = options;
  const contextOf = (call: Call) => ({ visibility: call.visibility ?? 'private', organizationOwner: true });
  const requestOf = (call: Call) => ({ method: call.method, path: call.path });

  // What each call needs of this kind, from a token that holds nothing.
  const judged = calls.map((call) => {
    const early = notJudgedBeforehand(call);
    if (early !== null) return { call, early, bare: null, matched: null };
    // Matched once, decided for the empty token here and for the judging token below.
    const matched = policy.match(requestOf(call));
    const bare = policy.decide(matched, empty, contextOf(call));
    if (bare.endpoint !== null && !bare.allowed) {
      if (bare.reason === 'insufficient_permission' && bare.requirement.fineGrained !== null) {
        const need = bare.requirement.fineGrained;
        const holdable =
          holds === undefined
            ? need
            : need.filter((alternative) =>
                Object.entries(alternative).every(([slug, level]) => holds.canHold(slug, level)),
              );
        if (holdable.length === 0) unholdable.set(call, need);
        else permissionNeeds.push(holdable);
      }
      if (bare.reason === 'insufficient_scope' && bare.requirement.classic !== null)
        scopeNeeds.push(bare.requirement.classic);
      // A private repository hides from a classic token without `repo`, unless it meets the endpoint's own scopes.
      if (bare.reason === 'not_found' && (kind === 'classic' || kind === 'oauth-app'))
        scopeNeeds.push(bare.requirement.classic ?? [['repo']]);
    }
    return { call, early: null, bare, matched };
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

  const cannotHold = new Set<string>();
  const results: CallResult[] = judged.map(({ call, early, bare, matched }) => {
    if (early !== null) return early;
    const decision = policy.decide(matched!, judge, contextOf(call));
    const need = unholdable.get(call);
    if (need === undefined || holds === undefined || decision.allowed)
      return verdictOf(call, bare!, decision, matched!.kind === 'endpoint' ? matched!.entry : null);
    const wanted = need.map((alternative) =>
      Object.entries(alternative)
        .filter(([slug, level]) => !holds.canHold(slug, level))
        .map(([slug, level]) => `${slug}=${level}`),
    );
    for (const name of wanted[0] ?? []) cannotHold.add(name);
    const names = wanted.map((names) => names.map((n) => `\`${n}\``).join(' and ')).join(' or ');
    return {
      call,
      verdict: 'never',
      decision,
      note: `${call.method} ${call.path} needs ${names}, which ${holds.token} cannot hold: use ${holds.alternative}`,
    };
  });
  const counts = countVerdicts(results);
  const leftOut = results.filter((result) => NOT_JUDGED.includes(result.verdict));
  const refused = counts.denied + counts.never + (strict ? counts.uncertain : 0) > 0;
  return {
    tokenKind: kind,
    results,
    grant,
    leftOut,
    unused: token === undefined ? null : unusedGrants(token, permissionNeeds, scopeNeeds, policy),
    counts,
    sufficient: !refused && leftOut.length === 0,
    passed: !refused && (allowUnjudged || leftOut.length === 0),
    strict,
    allowUnjudged,
    cannotHold: [...cannotHold].sort(),
    job: options.job ?? null,
    tokenLabel: options.tokenLabel ?? kind,
  };
}

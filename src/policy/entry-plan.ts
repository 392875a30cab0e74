/** Per-endpoint plans compiled once by `createPolicy`: what the hot path would otherwise recompute per request. */
export type { PermissionAlternative } from './permission-denial.js';

import { type Outcome, outcome } from './outcome.js';
import { type PermissionAlternative, permissionDenial } from './permission-denial.js';
import { MASKED_PERMISSIONS, needMask } from './permission-masks.js';
import type { ResolvedPolicyOptions } from './policy-options.js';
import type { EndpointEntry, PolicyTables } from './tables.js';
import { LEVEL_CODES } from './token-view.js';
import { type Requirement, type ScopeRequirement, TOKEN_KINDS, type TokenKind } from './types.js';

/** What one visibility (public or private resource) of an endpoint needs. */
export interface VisibilityPlan {
  /** Bit `1 << TOKEN_KINDS.indexOf(kind)` set for each kind the endpoint accepts here. */
  readonly acceptedKinds: number;
  /** Classic alternatives as scope bitmasks; null when not shown, none, or when scopes exceed 31. */
  readonly scopeMasks: readonly number[] | null;
  readonly scopes: ScopeRequirement | null;
  readonly scopesShown: boolean;
  readonly requirement: {
    readonly fineGrained: Requirement | null;
    readonly classic: ScopeRequirement | null;
  };
  /** Headers for tokens without classic scopes (shared, frozen). */
  readonly headers: Readonly<Record<string, string>>;
  readonly acceptedPermissionsHeader: string | null;
  readonly acceptedScopesHeader: string | null;
  /** The refusal of each token kind this visibility does not accept. */
  readonly refusals: ReadonlyMap<TokenKind, Outcome>;
  /** The same refusals by the kind's index in TOKEN_KINDS (an array read on the hot path). */
  readonly refusalByKind: readonly (Outcome | undefined)[];
}

/** Everything `evaluateEndpoint` needs about one endpoint, computed once. */
export interface EntryPlan {
  readonly entry: EndpointEntry;
  readonly quoted: string;
  readonly fineGrained: readonly PermissionAlternative[] | null;
  /** `fineGrained` as need masks (see permission-masks.ts); null without it or past MASKED_PERMISSIONS. */
  readonly permissionMasks: readonly number[] | null;
  /** When the endpoint needs exactly one permission: the refusal of every token that lacks it. */
  readonly singlePermissionDenial: Outcome | null;
  readonly public: VisibilityPlan;
  readonly private: VisibilityPlan;
  readonly outcomes: {
    readonly publicWithoutToken: Outcome;
    readonly publicWithToken: Outcome;
    readonly privateWithoutToken: Outcome;
    readonly authenticationRequired: Outcome;
    readonly clientCredentialsRefused: Outcome;
    readonly ownerRequired: Outcome;
    readonly scopesMet: Outcome;
    readonly permissionsMet: Outcome;
    readonly scopesNotShown: Outcome;
  };
}

/** Bit of each token kind in `VisibilityPlan.acceptedKinds`. */
export const KIND_BITS: ReadonlyMap<string, number> = new Map(TOKEN_KINDS.map((kind, i) => [kind, 1 << i]));

/** Each scope's closure as a bitmask, or null when the catalog has more scopes than a mask holds. */
export function scopeMasks(tables: PolicyTables): ReadonlyMap<string, number> | null {
  const names = [...tables.scopeClosure.keys()];
  if (names.length > 31) return null;
  const bit = new Map(names.map((name, i) => [name, 1 << i]));
  return new Map(
    names.map((name) => [name, [...tables.scopeClosure.get(name)!].reduce((m, s) => m | bit.get(s)!, 0)]),
  );
}

const frozen = (...args: Parameters<typeof outcome>): Outcome => Object.freeze(outcome(...args));

// A shared outcome is handed to every caller: none of them may change what the others see.
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const part of Object.values(value)) deepFreeze(part);
    Object.freeze(value);
  }
  return value;
}

function visibilityPlan(
  entry: EndpointEntry,
  isPrivate: boolean,
  options: ResolvedPolicyOptions,
  masks: ReadonlyMap<string, number> | null,
  quoted: string,
): VisibilityPlan {
  const classic = isPrivate ? entry.classicPrivate : entry.classic;
  const classicReachable = !(classic.shown && classic.requirement === null);
  const names = options.headerNames;
  let acceptedKinds = 0;
  const refusals = new Map<TokenKind, Outcome>();
  for (const kind of TOKEN_KINDS) {
    if (kind === 'anonymous' || kind === 'client-credentials') continue;
    const scoped = kind === 'classic' || kind === 'oauth-app';
    const tableKind = kind === 'workflow' ? 'app-installation' : kind;
    const accepted =
      (kind !== 'workflow' || options.workflowToken === 'app-installation') &&
      entry.tokens.includes(tableKind) &&
      (scoped ? classicReachable : entry.fineGrained !== null);
    if (accepted) acceptedKinds |= KIND_BITS.get(kind)!;
    else
      refusals.set(
        kind,
        frozen(
          false,
          403,
          'token_kind_not_accepted',
          kind === 'workflow' && options.workflowToken === 'deny'
            ? 'the workflow token is refused by configuration (workflowToken: deny)'
            : `${quoted} does not accept ${kind} tokens (accepted: ${entry.tokens.join(', ') || 'none'})`,
        ),
      );
  }
  const headers: Record<string, string> = {};
  // An endpoint that needs no permission (GET /rate_limit) sends no empty header.
  const accepted = entry.acceptedPermissionsHeader ?? '';
  if (accepted !== '') headers[names.acceptedPermissions] = accepted;
  const acceptedScopesHeader = isPrivate ? entry.acceptedScopesPrivateHeader : entry.acceptedScopesHeader;
  if (acceptedScopesHeader !== null) headers[names.acceptedOAuthScopes] = acceptedScopesHeader;
  const scopes = classic.requirement;
  return {
    acceptedKinds,
    scopeMasks:
      scopes === null || masks === null
        ? null
        : scopes.map((alt) => alt.reduce((m, s) => m | (masks.get(s) ?? 0), 0)),
    scopes,
    scopesShown: classic.shown,
    requirement: Object.freeze({ fineGrained: entry.fineGrained, classic: scopes }),
    headers: Object.freeze(headers),
    acceptedPermissionsHeader: accepted === '' ? null : accepted,
    acceptedScopesHeader,
    refusals,
    refusalByKind: TOKEN_KINDS.map((kind) => refusals.get(kind)),
  };
}

/** Compiles the plan of one endpoint for the given options. */
export function planEntry(
  entry: EndpointEntry,
  options: ResolvedPolicyOptions,
  masks: ReadonlyMap<string, number> | null,
  slugIndex: ReadonlyMap<string, number>,
): EntryPlan {
  const quoted = `\`${entry.key}\``;
  const allowUnshown = options.unshownScopes === 'allow';
  const fineGrained: readonly PermissionAlternative[] | null =
    entry.fineGrained === null
      ? null
      : entry.fineGrained.map((alt) => {
          const slugs = Object.keys(alt);
          const levels = slugs.map((slug) => alt[slug]!);
          return {
            slugs,
            levels,
            indexes: Int32Array.from(slugs, (slug) => slugIndex.get(slug) ?? slugIndex.size),
            codes: Uint8Array.from(levels, (level) => LEVEL_CODES[level]),
          };
        });
  const single = fineGrained?.length === 1 && fineGrained[0]!.slugs.length === 1;
  return {
    entry,
    quoted,
    fineGrained,
    permissionMasks:
      fineGrained === null || slugIndex.size > MASKED_PERMISSIONS
        ? null
        : fineGrained.map((alternative) => needMask(alternative, slugIndex.size)),
    singlePermissionDenial: single
      ? deepFreeze(
          permissionDenial(quoted, fineGrained!, new Uint8Array(0), !entry.additional && entry.tokensShown),
        )
      : null,
    public: visibilityPlan(entry, false, options, masks, quoted),
    private: visibilityPlan(entry, true, options, masks, quoted),
    outcomes: {
      publicWithoutToken: frozen(
        true,
        200,
        'public_resource',
        `${quoted} serves public data without authentication`,
      ),
      publicWithToken: frozen(
        true,
        200,
        'public_resource',
        `${quoted} serves public data without permissions`,
      ),
      privateWithoutToken: frozen(
        false,
        404,
        'not_found',
        `the resource is private: ${quoted} answers 404 to callers without a token`,
      ),
      authenticationRequired: frozen(
        false,
        401,
        'authentication_required',
        `${quoted} requires authentication`,
      ),
      clientCredentialsRefused: frozen(
        false,
        403,
        'token_kind_not_accepted',
        `client credentials reach public data only; ${quoted} serves none`,
      ),
      ownerRequired: frozen(
        false,
        403,
        'organization_owner_required',
        `${quoted} is for organization owners only`,
      ),
      scopesMet: frozen(true, 200, 'allowed', `the token's scopes meet ${quoted}`, !entry.additional),
      permissionsMet: frozen(
        true,
        200,
        'allowed',
        `the token's permissions meet ${quoted}`,
        !entry.additional && entry.tokensShown,
      ),
      scopesNotShown: frozen(
        allowUnshown,
        allowUnshown ? 200 : 403,
        allowUnshown ? 'allowed' : 'requirement_not_shown',
        `the classic scopes ${quoted} needs are not shown by the specification${allowUnshown ? '; allowed by configuration (unshownScopes: allow)' : '; state them in an overlay'}`,
        false,
      ),
    },
  };
}

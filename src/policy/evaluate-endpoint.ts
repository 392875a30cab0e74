/** The checks after route matching, in DESIGN.md section 2's order: anonymous, token kind, public data, existence hiding, owner, requirement. */
// Hot path: every matched request runs through here; `npm run bench` guards it. Allowed and most
// denied answers are outcomes the plan built once; only a missing permission or scope is computed.
import { type EntryPlan, KIND_BITS, type PermissionAlternative } from './entry-plan.js';
import { NOTHING, type Outcome, outcome } from './outcome.js';
import { levelCovers, missingScopes, scopesMeet, smallestMissing } from './requirement.js';
import { heldScopes } from './scope-closure.js';
import type { PolicyTables } from './tables.js';
import type { Level, PermissionToken, ResourceContext, ScopedToken, Token } from './types.js';

// Repository names fold case in ASCII only (full Unicode folding would make the Kelvin sign `K`
// equal `k`). Nothing is cached per token: a caller may reuse and change a token's list, and a
// stale answer here would reveal a private repository.
function foldAscii(text: string): string {
  return /[^\x00-\x7f]/.test(text) ? text : text.toLowerCase();
}

function selects(selected: readonly string[], owner: string, repo: string): boolean {
  const wanted = foldAscii(`${owner}/${repo}`);
  for (let i = 0; i < selected.length; i++) {
    const name = selected[i]!;
    if (name.length === wanted.length && foldAscii(name) === wanted) return true;
  }
  return false;
}

// Own properties only: an inherited (or polluted `Object.prototype`) level grants nothing.
function grantedLevel(granted: Readonly<Record<string, Level>>, slug: string): Level | undefined {
  return Object.hasOwn(granted, slug) ? granted[slug] : undefined;
}

function heldMask(scopes: readonly string[], masks: ReadonlyMap<string, number>): number {
  let held = 0;
  for (let i = 0; i < scopes.length; i++) held |= masks.get(scopes[i]!) ?? 0;
  return held;
}

function meets(
  alternatives: readonly PermissionAlternative[],
  granted: Readonly<Record<string, Level>>,
): boolean {
  outer: for (let a = 0; a < alternatives.length; a++) {
    const { slugs, levels } = alternatives[a]!;
    for (let i = 0; i < slugs.length; i++)
      if (!levelCovers(grantedLevel(granted, slugs[i]!), levels[i]!)) continue outer;
    return true;
  }
  return false;
}

// Messages name each missing alternative: "`issues=read` or `pull_requests=read`". Built with
// plain loops: denials are common on the hot path too (a token probing what it may do).
function describeScopes(missing: readonly (readonly string[])[]): string {
  let text = '';
  for (let a = 0; a < missing.length; a++) {
    const scopes = missing[a]!;
    if (a > 0) text += ' or ';
    for (let i = 0; i < scopes.length; i++) text += `${i > 0 ? ' and ' : ''}\`${scopes[i]}\``;
  }
  return text;
}

// Per alternative, what the token lacks; the message and the smallest addition in the same pass.
function missingPermissions(
  alternatives: readonly PermissionAlternative[],
  granted: Readonly<Record<string, Level>>,
) {
  const missing: Record<string, Level>[] = [];
  let text = '';
  let smallest: Record<string, Level> | undefined;
  let smallestSize = Number.POSITIVE_INFINITY;
  for (let a = 0; a < alternatives.length; a++) {
    const { slugs, levels } = alternatives[a]!;
    const lacking: Record<string, Level> = {};
    let size = 0;
    if (a > 0) text += ' or ';
    for (let i = 0; i < slugs.length; i++) {
      if (levelCovers(grantedLevel(granted, slugs[i]!), levels[i]!)) continue;
      lacking[slugs[i]!] = levels[i]!;
      text += `${size > 0 ? ' and ' : ''}\`${slugs[i]}=${levels[i]}\``;
      size++;
    }
    missing.push(lacking);
    if (size < smallestSize) {
      smallest = lacking;
      smallestSize = size;
    }
  }
  return { missing, smallest, text };
}

/**
 * Decides a request already matched to the endpoint of `plan`: pure, never throws.
 * @example
 * import { createPolicy } from 'tollgate';
 * // createPolicy compiles the plans and calls evaluateEndpoint for each matched request.
 */
export function evaluateEndpoint(
  plan: EntryPlan,
  params: Readonly<Record<string, string>>,
  token: Token,
  context: ResourceContext,
  tables: PolicyTables,
  masks: ReadonlyMap<string, number> | null,
): Outcome {
  const entry = plan.entry;
  const outcomes = plan.outcomes;
  // A path that names no resource (GET /rate_limit) has no visibility to hide behind.
  const isPrivate = context.visibility !== 'public' && !entry.resourceless;
  const servesPublic = entry.public && !isPrivate;
  const kind = token.kind;

  if (kind === 'anonymous' || kind === 'client-credentials') {
    if (servesPublic) return outcomes.publicWithoutToken;
    if (entry.public) return outcomes.privateWithoutToken;
    return kind === 'anonymous' ? outcomes.authenticationRequired : outcomes.clientCredentialsRefused;
  }
  const visibility = isPrivate ? plan.private : plan.public;
  if ((visibility.acceptedKinds & KIND_BITS.get(kind)!) === 0) return visibility.refusals.get(kind)!;
  if (servesPublic) return outcomes.publicWithToken;

  const scoped = kind === 'classic' || kind === 'oauth-app';
  const scopes = scoped ? (token as ScopedToken).scopes : undefined;
  const held = scopes !== undefined && masks !== null ? heldMask(scopes, masks) : 0;
  const repoParams = entry.repositoryParams;
  if (isPrivate && repoParams !== null) {
    const owner = params[repoParams[0]] ?? '';
    const repo = params[repoParams[1]] ?? '';
    const repositories = (token as PermissionToken).repositories;
    const hidden = scoped
      ? masks !== null
        ? (held & masks.get('repo')!) === 0
        : !heldScopes(scopes!, tables.scopeClosure).has('repo')
      : repositories !== 'all' && !selects(repositories, owner, repo);
    if (hidden)
      return scoped
        ? outcome(
            false,
            404,
            'not_found',
            `the private repository \`${owner}/${repo}\` is invisible to a classic token without \`repo\``,
            true,
            [],
            { kind: 'scopes', scopes: ['repo'] },
          )
        : outcome(
            false,
            404,
            'not_found',
            `the private repository \`${owner}/${repo}\` is not in the token's repository selection`,
          );
  }
  if (entry.ownerOnly && context.organizationOwner !== true) return outcomes.ownerRequired;

  if (scoped) {
    const requirement = visibility.scopes;
    if (requirement === null) return outcomes.scopesNotShown;
    const masksOfRequirement = visibility.scopeMasks;
    if (masksOfRequirement !== null) {
      for (let i = 0; i < masksOfRequirement.length; i++)
        if ((held & masksOfRequirement[i]!) === masksOfRequirement[i]) return outcomes.scopesMet;
    } else if (scopesMeet(requirement, heldScopes(scopes!, tables.scopeClosure))) return outcomes.scopesMet;
    const missing = missingScopes(requirement, heldScopes(scopes!, tables.scopeClosure));
    const smallest = smallestMissing(missing);
    const needs = smallest === undefined ? 'a scope no token can hold' : `scope ${describeScopes(missing)}`;
    const addition = smallest === undefined ? NOTHING : ({ kind: 'scopes', scopes: smallest } as const);
    return outcome(
      false,
      403,
      'insufficient_scope',
      `${plan.quoted} needs ${needs}`,
      outcomes.scopesMet.certain,
      missing,
      addition,
    );
  }

  const granted = (token as PermissionToken).permissions;
  const alternatives = plan.fineGrained!;
  if (meets(alternatives, granted)) return outcomes.permissionsMet;
  const { missing, smallest, text } = missingPermissions(alternatives, granted);
  const needs = smallest === undefined ? 'a permission no token can hold' : `permission ${text}`;
  const addition =
    smallest === undefined ? NOTHING : ({ kind: 'permissions', permissions: smallest } as const);
  return outcome(
    false,
    403,
    'insufficient_permission',
    `${plan.quoted} needs ${needs}`,
    outcomes.permissionsMet.certain,
    missing,
    addition,
  );
}

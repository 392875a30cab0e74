/** The checks after route matching, in DESIGN.md section 2's order: anonymous, token kind, public data, existence hiding, owner, requirement. */
// Hot path: every matched request runs through here; `npm run bench` guards it. Allowed and most
// denied answers are outcomes the plan built once; only a missing permission or scope is computed.
import type { EntryPlan, VisibilityPlan } from './entry-plan.js';
import { NO_MISSING, NOTHING, type Outcome, outcome } from './outcome.js';
import { permissionDenial } from './permission-denial.js';
import { meetsLevels, meetsMasks } from './permission-masks.js';
import { missingScopes, scopesMeet, smallestMissing } from './requirement.js';
import { selects, type TokenView } from './token-view.js';
import type { Addition, ResourceContext } from './types.js';

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

// Whether the scopes held meet one of the visibility's alternatives; null when the seeds show none.
function scopesHeld(visibility: VisibilityPlan, view: TokenView): boolean | null {
  const requirement = visibility.scopes;
  if (requirement === null) return null;
  const masksOfRequirement = visibility.scopeMasks;
  if (masksOfRequirement === null) return scopesMeet(requirement, view.held);
  for (let i = 0; i < masksOfRequirement.length; i++)
    if ((view.heldMask & masksOfRequirement[i]!) === masksOfRequirement[i]) return true;
  return false;
}

// What a classic token hidden from a private repository lacks: the same for every such request,
// so frozen objects shared by all, not three new ones per refusal.
const ADD_REPO: Addition = Object.freeze({ kind: 'scopes', scopes: Object.freeze(['repo']) });

function hiddenRepository(scoped: boolean, owner: string, repo: string): Outcome {
  return scoped
    ? outcome(
        false,
        404,
        'not_found',
        `the private repository \`${owner}/${repo}\` is invisible to a classic token without \`repo\``,
        true,
        NO_MISSING,
        ADD_REPO,
      )
    : outcome(
        false,
        404,
        'not_found',
        `the private repository \`${owner}/${repo}\` is not in the token's repository selection`,
      );
}

/**
 * Decides a request already matched to the endpoint of `plan`, for a token already read into
 * `view`: pure, never throws.
 * @example
 * import { createPolicy } from 'tollgate';
 * // createPolicy compiles the plans and calls evaluateEndpoint for each matched request.
 */
export function evaluateEndpoint(
  plan: EntryPlan,
  params: Readonly<Record<string, string>>,
  view: TokenView,
  context: ResourceContext,
  repoMask: number,
): Outcome {
  const entry = plan.entry;
  const outcomes = plan.outcomes;
  // A path that names no resource (GET /rate_limit) has no visibility to hide behind.
  const isPrivate = context.visibility !== 'public' && !entry.resourceless;
  const servesPublic = entry.public && !isPrivate;
  const kind = view.kind;

  if (kind === 'anonymous' || kind === 'client-credentials') {
    if (servesPublic) return outcomes.publicWithoutToken;
    if (entry.public) return outcomes.privateWithoutToken;
    return kind === 'anonymous' ? outcomes.authenticationRequired : outcomes.clientCredentialsRefused;
  }
  const visibility = isPrivate ? plan.private : plan.public;
  if ((visibility.acceptedKinds & (1 << view.kindIndex)) === 0)
    return visibility.refusalByKind[view.kindIndex]!;
  if (servesPublic) return outcomes.publicWithToken;

  const scoped = kind === 'classic' || kind === 'oauth-app';
  // Computed before existence hiding: an endpoint whose own requirement the token meets (the
  // `notifications` scope on a repository's notifications) is not hidden from it.
  const scopesOk = scoped ? scopesHeld(visibility, view) : null;
  const repoParams = entry.repositoryParams;
  if (isPrivate && repoParams !== null) {
    // The owner and repository are read only when a check or a message needs them: a read by a
    // name that differs per route is a megamorphic load (~80 instructions each under callgrind).
    if (scoped) {
      if (scopesOk !== true && (repoMask !== 0 ? (view.heldMask & repoMask) === 0 : !view.held.has('repo')))
        return hiddenRepository(true, params[repoParams[0]] ?? '', params[repoParams[1]] ?? '');
    } else if (view.selection !== null) {
      const owner = params[repoParams[0]] ?? '';
      const repo = params[repoParams[1]] ?? '';
      if (!selects(view.selection, owner, repo)) return hiddenRepository(false, owner, repo);
    }
  }
  if (entry.ownerOnly && context.organizationOwner !== true) return outcomes.ownerRequired;

  if (scoped) {
    if (scopesOk === null) return outcomes.scopesNotShown;
    if (scopesOk) return outcomes.scopesMet;
    const missing = missingScopes(visibility.scopes!, view.held);
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

  const alternatives = plan.fineGrained!;
  // One `&` per alternative on small catalogs (the shipped one has 14 permissions); level codes past that.
  const masks = plan.permissionMasks;
  if (masks !== null ? meetsMasks(masks, view.grantMask) : meetsLevels(alternatives, view.levels))
    return outcomes.permissionsMet;
  // One permission needed: what is missing is always that permission, worked out once.
  return (
    plan.singlePermissionDenial ??
    permissionDenial(plan.quoted, alternatives, view.levels, outcomes.permissionsMet.certain)
  );
}

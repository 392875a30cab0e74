/** The rule nearest exhaustion of an admitted request, for the IETF `RateLimit` fields (`standardHeaders`). */
import type { AdmitRequest, Limiter } from '../limiter/limiter.js';
import type { LimitsIdentity } from '../limits/identity.js';
import type { IdentityState } from '../limits/identity-state.js';
import type { LimitsStore } from '../limits/limits-store.js';
import { nearestRule, type RuleStanding } from '../limits/nearest-rule.js';
import { pointCost } from '../limits/point-cost.js';
import type { Verdict } from '../limits/verdict.js';
import type { MaybePromise } from './maybe-async.js';

/**
 * The rule nearest exhaustion for the request as the gate admitted it, read from the identity's
 * state (one store read); undefined (the verdict's primary window) when the store cannot tell.
 * @example
 * import { createLimiter } from 'tollgate';
 * import { nearestOf } from './nearest-of.js';
 * const limiter = createLimiter();
 * const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
 * const admit = { identity };
 * const verdict = limiter.admit(admit);
 * nearestOf(limiter, Date.now, identity, verdict, admit); // the standing of the rule nearest exhaustion
 */
export function nearestOf(
  limiter: Limiter<LimitsStore>,
  clock: () => number,
  identity: LimitsIdentity,
  verdict: Verdict,
  admit: AdmitRequest,
): MaybePromise<RuleStanding | undefined> {
  // As the gate admitted it: REST points, content as the table says.
  const charge = {
    resource: verdict.resource,
    limit: verdict.limit,
    cost: admit.cost ?? pointCost(admit, limiter.config),
    countsPrimary: admit.countsPrimary !== false,
    content: admit.content === true,
    graphql: false,
    admitted: verdict.ticket !== null,
  };
  // No state for an identity just admitted or refused by its window: the store could not say
  // (a Redis failure mode answered), so the verdict's primary window is reported.
  const standing = (state: IdentityState | undefined) =>
    state === undefined ? undefined : nearestRule(state, limiter.config, charge, clock());
  try {
    const state = limiter.store.read(identity.key);
    return state instanceof Promise ? state.then(standing, () => undefined) : standing(state);
  } catch {
    return undefined;
  }
}

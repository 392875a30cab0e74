/** The rule nearest exhaustion of an admitted request, for the IETF `RateLimit` fields (`standardHeaders`). */
import type { LimitCharge } from '../core/limit-charge.js';
import type { Limiter } from '../limiter/limiter.js';
import type { LimitsIdentity } from '../limits/identity.js';
import type { IdentityState } from '../limits/identity-state.js';
import type { LimitsStore } from '../limits/limits-store.js';
import { nearestRule, type RuleStanding } from '../limits/nearest-rule.js';
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
 * const charge = { resource: 'core', cost: 1, content: false, countsPrimary: true } as const;
 * const verdict = limiter.admit(identity, charge);
 * nearestOf(limiter, Date.now, identity, verdict, charge); // the standing of the rule nearest exhaustion
 */
export function nearestOf(
  limiter: Limiter<LimitsStore>,
  clock: () => number,
  identity: LimitsIdentity,
  verdict: Verdict,
  admitted: LimitCharge,
): MaybePromise<RuleStanding | undefined> {
  // As the gate admitted it: the endpoint's charge (REST points, content as the table says).
  const charge = {
    resource: verdict.resource,
    limit: verdict.limit,
    cost: admitted.cost,
    countsPrimary: admitted.countsPrimary,
    content: admitted.content,
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

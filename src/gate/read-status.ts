/** The `GET /rate_limit` body for the gate: null when the store cannot tell (fail-closed), so the gate answers 503. */
import { isTollgateError } from '../core/errors.js';
import type { Limiter } from '../limiter/limiter.js';
import type { LimitsIdentity } from '../limits/identity.js';
import type { LimitsStore } from '../limits/limits-store.js';
import type { RateLimitBody } from '../limits/rate-limit-body.js';
import type { MaybePromise } from './maybe-async.js';

const unavailable = (error: unknown): null => {
  if (isTollgateError(error) && error.code === 'TOLLGATE_STORE_UNAVAILABLE') return null;
  throw error;
};

/**
 * `limiter.status(identity)`, or null when the store is unavailable (a Redis store in
 * `fail-closed` that got no answer in time); other errors pass.
 * @example
 * import { createLimiter } from 'tollgate';
 * import { readStatus } from './read-status.js';
 * const limiter = createLimiter();
 * readStatus(limiter, limiter.identify({ kind: 'anonymous', ip: '203.0.113.7' })); // { resources: ..., rate: ... }
 */
export function readStatus(
  limiter: Limiter<LimitsStore>,
  identity: LimitsIdentity,
): MaybePromise<RateLimitBody | null> {
  try {
    const status = limiter.status(identity) as MaybePromise<RateLimitBody>;
    return status instanceof Promise ? status.catch(unavailable) : status;
  } catch (error) {
    return unavailable(error);
  }
}

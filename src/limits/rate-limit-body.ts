/** The body of `GET /rate_limit`: every resource's primary window as the caller sees it now. */
import { currentReset, windowUsed } from './fixed-window.js';
import type { IdentityState } from './identity-state.js';
import { LIMITS_RESOURCES, type LimitsConfig, type LimitsResource } from './limits-config.js';
import { type PrimaryLimits, resourceWindowMs } from './primary-limit.js';

/**
 * One resource in the `GET /rate_limit` body.
 * @example
 * import { createLimiter } from 'tollgate';
 * import type { RateLimitResourceStatus } from 'tollgate/limits';
 * const limiter = createLimiter();
 * const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
 * const core: RateLimitResourceStatus = limiter.status(identity).resources.core; // core.remaining === 5000
 */
export interface RateLimitResourceStatus {
  readonly limit: number;
  readonly remaining: number;
  /** Epoch seconds when the window ends (or would end, if a request opened one now). */
  readonly reset: number;
  readonly used: number;
  readonly resource: LimitsResource;
}

/**
 * The `GET /rate_limit` body: `resources` per resource, and `rate` (core) for older clients.
 * @example
 * import { createLimiter } from 'tollgate';
 * import type { RateLimitBody } from 'tollgate/limits';
 * const limiter = createLimiter();
 * const body: RateLimitBody = limiter.status(limiter.identify({ kind: 'anonymous', ip: '203.0.113.7' })); // body.rate.remaining === 60
 */
export interface RateLimitBody {
  readonly resources: Readonly<Record<LimitsResource, RateLimitResourceStatus>>;
  readonly rate: RateLimitResourceStatus;
}

/**
 * The `GET /rate_limit` body for an identity (seed 000, "Rate limit status": the shape is not
 * shown; tollgate answers `{resources: {core, search, graphql, lfs}, rate}`, each
 * `{limit, remaining, reset, used, resource}`). Secondary limits are not listed: "their status
 * cannot be queried" (seed 000, "Secondary rate limits").
 * @example
 * import { createLimiter } from 'tollgate';
 * import { rateLimitBody } from 'tollgate/limits';
 * const limiter = createLimiter();
 * const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
 * limiter.admit({ identity });
 * rateLimitBody(limiter.store.read(identity.key), Date.now(), identity.limits, limiter.config).resources.core.remaining; // 4999
 */
export function rateLimitBody(
  state: IdentityState | undefined,
  now: number,
  limits: PrimaryLimits,
  config: LimitsConfig,
): RateLimitBody {
  const resources = {} as Record<LimitsResource, RateLimitResourceStatus>;
  for (const resource of LIMITS_RESOURCES) {
    const [reset, used] = state === undefined ? [0, 0] : stored(state, resource);
    const current = windowUsed(reset, used, now, resourceWindowMs(resource, config));
    const limit = limits[resource];
    resources[resource] = {
      limit,
      remaining: current >= limit ? 0 : limit - current,
      reset: Math.ceil(currentReset(reset, now, resourceWindowMs(resource, config)) / 1000),
      used: current,
      resource,
    };
  }
  return { resources, rate: resources.core };
}

function stored(state: IdentityState, resource: LimitsResource): readonly [number, number] {
  switch (resource) {
    case 'core':
      return [state.coreReset, state.coreUsed];
    case 'search':
      return [state.searchReset, state.searchUsed];
    case 'graphql':
      return [state.graphqlReset, state.graphqlUsed];
    case 'lfs':
      return [state.lfsReset, state.lfsUsed];
  }
}

/** What one request of an endpoint charges the limits: the one type the tables and the limiter share. */

/**
 * The primary rate-limit resources of seed 000 ("Primary rate limits"); each has its own window.
 * @example
 * import type { LimitsResource } from 'tollgate/limits';
 * const resource: LimitsResource = 'search';
 */
export type LimitsResource = 'core' | 'search' | 'graphql' | 'lfs';

/**
 * An endpoint's charge, carried by its table row (`EndpointEntry.charge`) and read by the gate,
 * `check` and the simulator as the limiter takes it (`limiter.admit(identity, charge)`, or spread into
 * the object form `limiter.admit({ identity, ...charge })`).
 * @example
 * import type { LimitCharge } from 'tollgate/limits';
 * // seed 000: a POST costs 5 points and, creating an issue, counts as content creation.
 * const charge: LimitCharge = { resource: 'core', cost: 5, content: true, countsPrimary: true };
 */
export interface LimitCharge {
  /** The primary limit it counts against. */
  readonly resource: LimitsResource;
  /** Secondary points (seed 000: 1 for a GET, HEAD or OPTIONS, 5 for other methods). */
  readonly cost: number;
  /** Counts against the content-creation limits. */
  readonly content: boolean;
  /** Counts against the primary limit (false for `GET /rate_limit`). */
  readonly countsPrimary: boolean;
}

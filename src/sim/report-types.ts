/**
 * The shape of a simulation's report: what the engine fills, the planner reads and the text and
 * HTML reports draw. Times are virtual seconds from the run's start unless a name says otherwise.
 */

import type { LimitsResource } from '../core/limit-charge.js';
import type { LimitRule } from '../limits/limits-config.js';

/** The unit a rule counts in. */
export type GaugeUnit = 'requests' | 'points' | 'cpu-seconds' | 'in-flight';

/**
 * One rule's state over a run, bucket by bucket, for one caller's identity: what a chart draws
 * against the rule's limit line.
 * @example
 * import type { Gauge } from './report-types.js';
 * const gauge: Gauge = { rule: 'content_per_minute', limit: 80, unit: 'requests', windowSeconds: 60, remaining: [80, 0, null] };
 */
export interface Gauge {
  readonly rule: LimitRule;
  /** For a `primary` gauge: the resource whose window it reads (`core`, `search`, `graphql`, `lfs`). */
  readonly resource?: LimitsResource;
  /** The rule's limit in its unit: 5,000 requests an hour, 900 points, 80 content requests, 90 CPU seconds, 100 in flight. */
  readonly limit: number;
  readonly unit: GaugeUnit;
  /** The rule's window (3,600 for primary, 60 for points, 3,600 for content per hour); 0 for concurrency. */
  readonly windowSeconds: number;
  /**
   * Per bucket: the least remaining (limit − used, never below 0) the rule had in the bucket, as
   * the limiter held it for this identity; null where nothing was sent or known in the bucket.
   * A wait where the window sits at 0 reads 0 for its whole length, not a ramp.
   */
  readonly remaining: readonly (number | null)[];
}

/**
 * A caller's traffic over time, in buckets of one width for the whole run (60 s for runs of up to
 * 12 hours; for longer runs the engine widens buckets as it goes, merging neighbours, so no caller
 * keeps more than 1,024 buckets: memory does not grow with a run's length).
 * @example
 * import type { Series } from './report-types.js';
 * const series: Series = { bucketSeconds: 60, admitted: [80, 0], denied: [0, 40], inFlight: [1, 1], gauges: [] };
 */
export interface Series {
  readonly bucketSeconds: number;
  /** Per bucket: requests admitted, requests refused by any rule, and the most in flight at once. */
  readonly admitted: readonly number[];
  readonly denied: readonly number[];
  readonly inFlight: readonly number[];
  /** One gauge per rule the caller's traffic is counted against, primary first, in `LIMIT_RULES` order. */
  readonly gauges: readonly Gauge[];
}

/**
 * What one rule did to one caller.
 * @example
 * import type { RuleReport } from './report-types.js';
 * const rule: RuleReport = { denied: 420, limitedSeconds: 1200, firstRefusalAt: 40 };
 */
export interface RuleReport {
  /** Requests this rule refused. */
  readonly denied: number;
  /** Virtual seconds during which an answer of this rule had told the caller to wait (0 only when `denied` is 0). */
  readonly limitedSeconds: number;
  /** When this rule first refused the caller; null when it never did. */
  readonly firstRefusalAt: number | null;
}

/**
 * A summary per identity the limits count (a user, an installation, an address): callers that
 * share one budget appear together.
 * @example
 * import type { IdentityReport } from './report-types.js';
 * const identity: IdentityReport = { identity: 'user:octocat', callers: ['sync', 'bot'], admitted: 5000, denied: { primary: 12 } };
 */
export interface IdentityReport {
  /** The limiter's key for the identity, e.g. `user:octocat`, `installation:42`, `ip:198.51.100.7`. */
  readonly identity: string;
  /** Names of the callers counted against it. */
  readonly callers: readonly string[];
  readonly admitted: number;
  readonly denied: Readonly<Partial<Record<LimitRule, number>>>;
}

/**
 * What `--recommend` says per caller, as the text report, the JSON and the HTML page render it.
 * Times are virtual seconds from the run's start.
 */

import type { LimitsResource } from '../core/limit-charge.js';
import type { LimitRule } from '../limits/limits-config.js';

/**
 * What bounds a plan: a rule of the limits (its resource for `primary`; `concurrency` when no
 * rate binds and the plan is as fast as the identity's 100 requests in flight allow), or a
 * poller's `X-Poll-Interval`.
 */
export interface BindingRule {
  /** `poll_interval` for a poller, which waits `X-Poll-Interval` between polls (seed 000, "Polling rules"). */
  readonly rule: LimitRule | 'poll_interval';
  readonly resource?: LimitsResource;
  /** The rule's limit and window, e.g. 7,000 requests per 3,600 s, 80 content requests per 60 s. */
  readonly limit: number;
  readonly windowSeconds: number;
  /** One line for people: `primary (core): 7,000 requests per hour`. */
  readonly text: string;
}

/**
 * How a polite client at full speed (the caller's own workers, no pacing, the seed's client
 * rules when refused) fares against the plan.
 */
export interface PoliteComparison {
  /** When its work was done; null when it was not done in the run. */
  readonly workDoneAt: number | null;
  /** Refusals it met (a polite client waits each one out as the seed says). */
  readonly refusals: number;
  /** True when it finishes sooner than the plan. */
  readonly sooner: boolean;
}

/**
 * "How many users or installations do I need to finish `work` requests within `withinSeconds`":
 * the least pool whose members, each following its soonest refusal-free plan (steady, or windowed
 * where the report offers one), finish in time, checked by running `count` (finishes) and
 * `count − 1` (does not).
 */
export interface HowMany {
  readonly unit: 'users' | 'installations';
  readonly work: number;
  readonly withinSeconds: number;
  /** Null when no pool of at most `searchedUpTo` finishes in time. */
  readonly count: number | null;
  /** The plan `count` members follow: the steady pace, or the windowed plan; null with no count. */
  readonly plan: 'steady' | 'windowed' | null;
  /** When `count` members finish, as run, in seconds from the caller's start (its schedule's `start`). */
  readonly workDoneAt: number | null;
  /** When `count − 1` members finish, as run, from the caller's start (null: not in the run, or `count` is 1). */
  readonly fewerWorkDoneAt: number | null;
  readonly searchedUpTo: number;
}

/**
 * A refusal-free plan that spends each window of the binding rule at once and waits for the next:
 * `perWindow` requests at `rate`, then a wait until `waitSeconds` after the window opened
 * (`x-ratelimit-reset`), `windows` times. Offered when a rule with a long window (an hour) binds
 * and it finishes sooner than the steady plan.
 */
export interface WindowedAdvice {
  readonly rate: number;
  readonly workers: number;
  readonly unpaced: boolean;
  readonly perWindow: number;
  readonly windows: number;
  readonly waitSeconds: number;
  /** When the work is done, as the planner's check run found. */
  readonly workDoneAt: number;
  readonly refused: number;
}

/**
 * The planner's advice for one caller (one line each, pools' members included).
 * @example
 * import type { PlannerAdvice } from './planner-types.js';
 * const advice: PlannerAdvice = {
 *   caller: 'importer', identity: 'user:importer', sharedWith: [], work: 200, rate: 1.32, workers: 1, unpaced: false,
 *   binding: { rule: 'content_per_minute', limit: 80, windowSeconds: 60, text: 'content_per_minute: 80 content requests per minute' },
 *   workDoneAt: 151.2, fastestWorkDoneAt: 149.3, refused: 0, polite: { workDoneAt: 180.4, refusals: 3, sooner: false }, howMany: null,
 * };
 */
export interface PlannerAdvice {
  readonly caller: string;
  /** The limiter's key of the caller's identity. */
  readonly identity: string;
  /** Other callers on the same identity, planned together with this one. */
  readonly sharedWith: readonly string[];
  readonly work: number | null;
  /** Requests per second, all workers together; for a caller without work, the rate it can sustain. */
  readonly rate: number;
  /** Requests in flight at most; `rate` is kept with the caller's mean latency. */
  readonly workers: number;
  /** True when the plan sends as fast as answers come (no pacing): `rate` is then what the workers reach. */
  readonly unpaced: boolean;
  readonly binding: BindingRule | null;
  /** When the work is done under the plan, as the planner's check run found; null without work. */
  readonly workDoneAt: number | null;
  /** The least finish any steady plan can reach without a refusal, from the rules' arithmetic. */
  readonly fastestWorkDoneAt: number | null;
  /** Refusals met by the plan in the check run (0 unless the planner says otherwise). */
  readonly refused: number;
  /** The polite client at full speed, for callers with work; null without. */
  readonly polite: PoliteComparison | null;
  readonly howMany: HowMany | null;
  /** The windowed plan, when one is sooner than the steady plan and refused nothing when run. */
  readonly windowed?: WindowedAdvice;
}

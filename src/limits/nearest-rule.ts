/** The rule nearest exhaustion for one request: what the IETF RateLimit fields report. */
// Not on the default hot path: the gate calls it only when `standardHeaders` is set.
//
// Every rule that applies to the request is read from the identity's state as its step reads it
// (logs in `sliding` mode, buckets in `bucket` mode), at the state's effective time. Rules are
// ranked by what remained when the request arrived (its own charge, already in the state of an
// admitted request, left out), so a fresh identity, every rule whole, reports its primary window
// (the tie goes to it) rather than the rule its first request dented most; the rule chosen is
// reported with what remains after the request. Worked example (default limits, sliding): after
// 880 GETs within a minute, the 881st arrives with rest_points 20 of 900 left (2.2 %), core 4,120
// of 5,000 (82 %), in flight 100 of 100: rest_points is reported, r = 900 - 881 = 19.
import { effectiveTime } from './effective-time.js';
import { currentReset, windowUsed } from './fixed-window.js';
import type { IdentityState } from './identity-state.js';
import type { LimitsConfig, LimitsResource } from './limits-config.js';
import { logPlan } from './log-rules.js';
import { resourceWindowMs } from './primary-limit.js';
import { refillSpent } from './token-bucket.js';

/**
 * What the request is charged on: its resource and that resource's primary limit for the caller,
 * its points, whether it counts against the primary window, creates content or is a GraphQL
 * request, and whether the state already holds its charge (`admitted`; a refused one charged none).
 * @example
 * import type { RuleCharge } from 'tollgate/limits';
 * const charge: RuleCharge = { resource: 'core', limit: 5000, cost: 1, countsPrimary: true,
 *   content: false, graphql: false, admitted: true };
 */
export interface RuleCharge {
  readonly resource: LimitsResource;
  readonly limit: number;
  readonly cost: number;
  readonly countsPrimary: boolean;
  readonly content: boolean;
  readonly graphql: boolean;
  readonly admitted: boolean;
}

/**
 * One rule's standing: its name (the resource for the primary window), quota and remaining in the
 * rule's own unit (requests, points, CPU ms), its window in seconds (null for concurrency), and
 * the seconds until what it counts now has all left (the primary window's end; 1 s for
 * concurrency, the wait the service asks when it is full).
 * @example
 * import type { RuleStanding } from 'tollgate/limits';
 * const standing: RuleStanding = { name: 'rest_points', quota: 900, remaining: 19,
 *   windowSeconds: 60, resetSeconds: 60, unit: null };
 */
export interface RuleStanding {
  readonly name: string;
  readonly quota: number;
  readonly remaining: number;
  readonly windowSeconds: number | null;
  readonly resetSeconds: number;
  /** The quota unit when it is not requests or points (`concurrent-requests`). */
  readonly unit: string | null;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** As step-into's CONCURRENCY_RETRY_MS: a full concurrency rule asks to retry after 1 s. */
const CONCURRENCY_RESET_SECONDS = 1;

const seconds = (ms: number) => Math.max(0, Math.ceil(ms / 1000));

/**
 * Used and seconds until all of it has left, from a flat `[time, weight, ...]` log, counted as
 * liveSum counts it (entries stamped after `t - spanMs`), read in place.
 */
function fromLog(flat: readonly number[] | undefined, t: number, spanMs: number): [number, number] {
  if (flat === undefined || flat.length < 2) return [0, 0];
  const edge = t - spanMs;
  let used = 0;
  for (let i = 0; i + 1 < flat.length; i += 2) if (flat[i]! > edge) used += flat[i + 1]!;
  const newest = flat[flat.length - 2]!;
  return [used, used > 0 ? seconds(newest + spanMs - t) : 0];
}

/** Used and seconds until full, from a bucket's spent value (point·ms) refilled up to `t`. */
function fromBucket(spent: number, capacity: number, windowMs: number, elapsed: number): [number, number] {
  const left = refillSpent(spent, capacity, elapsed);
  return [left / windowMs, seconds(left / capacity)];
}

/**
 * The rule nearest exhaustion (smallest remaining / quota when the request arrived) among those
 * that apply to `charge`, with what remains of it now:
 * the primary window of its resource, REST or GraphQL points, CPU (and GraphQL CPU), content per
 * minute and per hour (content requests only) and concurrency, read from `state` (undefined: a
 * new identity) at `nowMs`. Pure: no clock, no store.
 * @example
 * import { createLimiter } from 'tollgate';
 * import { nearestRule } from 'tollgate/limits';
 * const limiter = createLimiter({ clock: () => 1_700_000_000_000 });
 * limiter.admit({ identity: limiter.identify({ kind: 'classic', user: 'octocat' }) });
 * nearestRule(limiter.store.read('user:octocat'), limiter.config,
 *   { resource: 'core', limit: 5000, cost: 1, countsPrimary: true, content: false, graphql: false,
 *     admitted: true }, 1_700_000_000_000);
 * // { name: 'core', quota: 5000, remaining: 4999, windowSeconds: 3600, resetSeconds: 3600, unit: null }
 */
export function nearestRule(
  state: IdentityState | undefined,
  config: LimitsConfig,
  charge: RuleCharge,
  nowMs: number,
): RuleStanding {
  const at = state?.at ?? 0;
  const t = effectiveTime(nowMs, at);
  const elapsed = t - at;
  const sec = config.secondary;
  const { uses, spans, capacities } = logPlan(config);
  const logs = state?.logs;

  // The primary window, as the step counts it (seed 000, "Primary rate limits").
  const windowMs = resourceWindowMs(charge.resource, config);
  const field = charge.resource;
  const storedReset = state === undefined ? 0 : state[`${field}Reset`];
  const storedUsed = state === undefined ? 0 : state[`${field}Used`];
  const used = windowUsed(storedReset, storedUsed, t, windowMs);
  const own = (amount: number) => (charge.admitted ? amount : 0);
  const arrived = (quota: number, usedNow: number, charged: number) =>
    quota > 0 ? Math.max(0, Math.floor(quota - usedNow + own(charged))) / quota : 0;
  let best: RuleStanding = {
    name: charge.resource,
    quota: charge.limit,
    remaining: Math.max(0, charge.limit - used),
    windowSeconds: Math.ceil(windowMs / 1000),
    resetSeconds: seconds(currentReset(storedReset, t, windowMs) - t),
    unit: null,
  };
  let bestFraction = arrived(charge.limit, used, charge.countsPrimary ? 1 : 0);
  const consider = (
    name: string,
    quota: number,
    charged: number,
    [usedNow, resetSeconds]: [number, number],
    windowSeconds: number | null,
    unit: string | null = null,
  ) => {
    const fraction = arrived(quota, usedNow, charged);
    if (fraction < bestFraction) {
      const remaining = Math.max(0, Math.floor(quota - usedNow));
      best = { name, quota, remaining, windowSeconds, resetSeconds, unit };
      bestFraction = fraction;
    }
  };

  // seed 000, "Secondary rate limits": points per minute, REST or GraphQL by the request.
  const p = charge.graphql ? 1 : 0;
  const pointsMs = sec.points.windowMs;
  consider(
    charge.graphql ? 'graphql_points' : 'rest_points',
    capacities[p]!,
    charge.cost,
    uses[p]
      ? fromLog(logs?.[p], t, spans[p]!)
      : fromBucket(
          charge.graphql ? (state?.graphqlPoints ?? 0) : (state?.restPoints ?? 0),
          capacities[p]!,
          pointsMs,
          elapsed,
        ),
    pointsMs / 1000,
  );
  // CPU always counts in a log (log-rules.ts); every request is held to the total.
  const cpuSeconds = sec.cpu.windowMs / 1000;
  consider('cpu', capacities[2]!, 0, fromLog(logs?.[2], t, spans[2]!), cpuSeconds);
  if (charge.graphql)
    consider('graphql_cpu', capacities[3]!, 0, fromLog(logs?.[3], t, spans[3]!), cpuSeconds);
  if (charge.content) {
    consider(
      'content_per_minute',
      capacities[4]!,
      1,
      uses[4]
        ? fromLog(logs?.[4], t, spans[4]!)
        : fromBucket(state?.contentMinute ?? 0, capacities[4]!, MINUTE, elapsed),
      60,
    );
    consider(
      'content_per_hour',
      capacities[5]!,
      1,
      uses[5]
        ? fromLog(logs?.[5], t, spans[5]!)
        : fromBucket(state?.contentHour ?? 0, capacities[5]!, HOUR, elapsed),
      3600,
    );
  }
  consider(
    'concurrency',
    sec.concurrency.limit,
    1,
    [state?.inFlight ?? 0, CONCURRENCY_RESET_SECONDS],
    null,
    'concurrent-requests',
  );
  return best;
}

/** What every rule of one identity has counted at a moment: the simulator's gauges read it. */
// Not on the request path: the simulator samples it a bounded number of times per report bucket.
// Each rule is read from the state as its step counts it (logs in `sliding` mode, buckets in
// `bucket` mode, fixed windows for the primary limits), at the state's effective time.
import { effectiveTime } from './effective-time.js';
import { windowUsed } from './fixed-window.js';
import type { IdentityState } from './identity-state.js';
import type { LimitsConfig, LimitsResource } from './limits-config.js';
import { logPlan } from './log-rules.js';
import { resourceWindowMs } from './primary-limit.js';
import { refillSpent } from './token-bucket.js';

/**
 * Used per rule, in the rule's unit: requests in the primary window of each resource, requests in
 * flight, points, CPU milliseconds, content-generating requests.
 * @example
 * import type { RuleUsage } from './rule-usage.js';
 * const usage: RuleUsage = { primary: { core: 12, search: 0, graphql: 0, lfs: 0 }, concurrency: 1,
 *   rest_points: 20, graphql_points: 0, cpu: 400, graphql_cpu: 0, content_per_minute: 2, content_per_hour: 2 };
 */
export interface RuleUsage {
  readonly primary: Readonly<Record<LimitsResource, number>>;
  readonly concurrency: number;
  readonly rest_points: number;
  readonly graphql_points: number;
  readonly cpu: number;
  readonly graphql_cpu: number;
  readonly content_per_minute: number;
  readonly content_per_hour: number;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** Weight stamped after `t - spanMs` in a flat `[time, weight, ...]` log, as the step counts it. */
function logUsed(flat: readonly number[] | undefined, t: number, spanMs: number): number {
  if (flat === undefined) return 0;
  const edge = t - spanMs;
  let used = 0;
  for (let i = 0; i + 1 < flat.length; i += 2) if (flat[i]! > edge) used += flat[i + 1]!;
  return used;
}

/**
 * Every rule's use for the identity whose stored state is `state` (undefined: never seen) at
 * `nowMs`. Pure: no clock, no store.
 * @example
 * import { createLimiter } from 'tollgate';
 * import { ruleUsage } from './rule-usage.js';
 * const limiter = createLimiter({ clock: () => 1_700_000_000_000 });
 * limiter.admit({ identity: limiter.identify({ kind: 'classic', user: 'octocat' }), method: 'POST', content: true });
 * ruleUsage(limiter.store.read('user:octocat'), limiter.config, 1_700_000_000_000).rest_points; // 5
 */
export function ruleUsage(state: IdentityState | undefined, config: LimitsConfig, nowMs: number): RuleUsage {
  const at = state?.at ?? 0;
  const t = effectiveTime(nowMs, at);
  const elapsed = t - at;
  const { uses, spans, capacities } = logPlan(config);
  const logs = state?.logs;
  const primary = (resource: LimitsResource) =>
    state === undefined
      ? 0
      : windowUsed(
          state[`${resource}Reset`],
          state[`${resource}Used`],
          t,
          resourceWindowMs(resource, config),
        );
  // A bucket stores what was spent in point·ms (token-bucket.ts): divided by its window, in points.
  const counted = (i: number, spent: number | undefined, windowMs: number) =>
    uses[i] ? logUsed(logs?.[i], t, spans[i]!) : refillSpent(spent ?? 0, capacities[i]!, elapsed) / windowMs;
  const pointsMs = config.secondary.points.windowMs;
  return {
    primary: {
      core: primary('core'),
      search: primary('search'),
      graphql: primary('graphql'),
      lfs: primary('lfs'),
    },
    concurrency: state?.inFlight ?? 0,
    rest_points: counted(0, state?.restPoints, pointsMs),
    graphql_points: counted(1, state?.graphqlPoints, pointsMs),
    // CPU always counts in a log (log-rules.ts).
    cpu: logUsed(logs?.[2], t, spans[2]!),
    graphql_cpu: logUsed(logs?.[3], t, spans[3]!),
    content_per_minute: counted(4, state?.contentMinute, MINUTE),
    content_per_hour: counted(5, state?.contentHour, HOUR),
  };
}

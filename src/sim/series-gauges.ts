/** The gauges of a caller's series, filled from what the limiter holds for its identity. */

import type { LimitsResource } from '../core/limit-charge.js';
import type { Limiter } from '../limiter/limiter.js';
import type { LimitsIdentity } from '../limits/identity.js';
import { LIMITS_RESOURCES, type LimitRule, type LimitsConfig } from '../limits/limits-config.js';
import type { SyncLimitsStore } from '../limits/limits-store.js';
import { ruleUsage } from '../limits/rule-usage.js';
import type { Verdict } from '../limits/verdict.js';
import type { CallerRun } from './caller-run.js';
import { bucketOf, type GaugeRecorder, leastAt } from './series-recorder.js';
import type { SimRequest } from './sim-request.js';

/**
 * Reads of the store per bucket at most: each costs a few microseconds, so a run of millions of
 * requests reads a bounded number of times. The primary gauge is also lowered by every verdict
 * (exact), and a refusal marks its rule at 0 for the whole wait (exact): the samples fill in the
 * rules that have not refused.
 */
const SAMPLES_PER_BUCKET = 2;

const gauge = (
  rule: LimitRule,
  limit: number,
  unit: GaugeRecorder['unit'],
  windowSeconds: number,
  resource?: LimitsResource,
): GaugeRecorder => ({
  rule,
  ...(resource === undefined ? {} : { resource }),
  limit,
  unit,
  windowSeconds,
  remaining: [],
  zeroUntil: 0,
});

/**
 * The gauges of every rule the caller's requests are counted against, primary first (one per
 * resource its mix uses), then in `LIMIT_RULES` order.
 * @example
 * // gaugesFor(requests, identity, config).map((g) => g.rule) -> ['primary', 'concurrency', 'rest_points', 'cpu']
 */
export function gaugesFor(
  requests: readonly SimRequest[],
  identity: LimitsIdentity,
  config: LimitsConfig,
): GaugeRecorder[] {
  const sec = config.secondary;
  const resources = new Set(requests.map((r) => r.admit.resource ?? 'core'));
  const graphql = requests.some((r) => r.admit.graphql === true);
  const rest = requests.some((r) => r.admit.graphql !== true);
  const content = requests.some((r) => r.admit.content === true);
  const gauges: GaugeRecorder[] = [];
  for (const resource of LIMITS_RESOURCES)
    if (resources.has(resource)) {
      const windowMs =
        resource === 'core' ? config.primary.windowMs : config.primary.resources[resource].windowMs;
      gauges.push(gauge('primary', identity.limits[resource], 'requests', windowMs / 1000, resource));
    }
  gauges.push(gauge('concurrency', sec.concurrency.limit, 'in-flight', 0));
  const pointsSeconds = sec.points.windowMs / 1000;
  if (rest) gauges.push(gauge('rest_points', sec.points.rest, 'points', pointsSeconds));
  if (graphql) gauges.push(gauge('graphql_points', sec.points.graphql, 'points', pointsSeconds));
  gauges.push(gauge('cpu', sec.cpu.totalMs / 1000, 'cpu-seconds', sec.cpu.windowMs / 1000));
  if (graphql)
    gauges.push(gauge('graphql_cpu', sec.cpu.graphqlMs / 1000, 'cpu-seconds', sec.cpu.windowMs / 1000));
  if (content) {
    gauges.push(gauge('content_per_minute', sec.content.perMinute, 'requests', 60));
    gauges.push(gauge('content_per_hour', sec.content.perHour, 'requests', 3600));
  }
  return gauges;
}

/** The amount of a rule a usage reading holds, in the gauge's unit. */
function usedOf(usage: ReturnType<typeof ruleUsage>, gauge: GaugeRecorder): number {
  switch (gauge.rule) {
    case 'primary':
      return usage.primary[gauge.resource ?? 'core'];
    case 'cpu':
    case 'graphql_cpu':
      return usage[gauge.rule] / 1000;
    default:
      return usage[gauge.rule];
  }
}

/**
 * Reads the identity's state from the store and keeps, per gauge, the least remaining of bucket
 * `bucket`; the next sample is due half a bucket later.
 * @example
 * // sampleGauges(run, limiter, now, 3) -> run.series.gauges[*].remaining[3] lowered to what the store holds
 */
export function sampleGauges(
  run: CallerRun,
  limiter: Limiter<SyncLimitsStore>,
  now: number,
  bucket: number,
): void {
  const usage = ruleUsage(limiter.store.read(run.identity.key), limiter.config, now);
  for (const g of run.series.gauges) leastAt(g.remaining, bucket, Math.max(0, g.limit - usedOf(usage, g)));
  run.nextSampleAt = now + run.series.bucketMs / SAMPLES_PER_BUCKET;
}

/**
 * A refusal: the rule that refused reads 0 from the refusal until it frees (`freedAt`), every
 * bucket of the wait, so a wait at 0 is drawn at 0 and not as a ramp.
 * @example
 * // recordRefusal(run, 'content_per_minute', verdict, now, now + 20_000) -> buckets of those 20 s at 0
 */
export function recordRefusal(
  run: CallerRun,
  rule: LimitRule,
  verdict: Verdict,
  now: number,
  freedAt: number,
): void {
  const series = run.series;
  for (const g of series.gauges) {
    if (g.rule !== rule || (rule === 'primary' && g.resource !== verdict.resource)) continue;
    // Only the part of the wait no earlier refusal has already marked: each bucket once.
    const from = Math.max(now, g.zeroUntil);
    if (from >= freedAt) {
      leastAt(g.remaining, bucketOf(series, now), 0);
      continue;
    }
    g.zeroUntil = freedAt;
    const last = bucketOf(series, freedAt - 1);
    for (let b = bucketOf(series, from); b <= last; b++) leastAt(g.remaining, b, 0);
  }
}

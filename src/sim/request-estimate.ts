/** How many requests a scenario would simulate, estimated before it runs: the bound that keeps a run finite. */
import { TollgateError } from '../core/errors.js';
import type { Distribution } from './random.js';
import type { CallerSpec, Scenario } from './scenario.js';

/** Scenarios estimated above this many simulated requests are refused unless asked to go on. */
export const REQUEST_CAP = 1e9;

/** One caller's estimate and the scenario field that drives it. */
export interface RequestEstimate {
  readonly count: number;
  /** `callers[0].rate`, `callers[2].work`, `callers[1].workers`. */
  readonly field: string;
}

function meanMs(distribution: Distribution): number {
  if (typeof distribution === 'number') return distribution;
  if ('uniform' in distribution) return (distribution.uniform[0] + distribution.uniform[1]) / 2;
  return distribution.exponential;
}

/**
 * Requests caller `index` would send at most: over its active span (the scenario's duration
 * within `start_seconds`..`stop_seconds`), its offered rate, or one request per worker per mean
 * latency (at least 1 ms, the engine's tick); without a span, its `work`.
 * @example
 * import { estimateRequests } from './request-estimate.js';
 * const caller = { name: 'a', token: { kind: 'anonymous' as const }, behaviour: 'greedy' as const, rate: 1e9, mix: [] };
 * estimateRequests({ seed: 1, durationSeconds: 31_536_000, callers: [caller] }, 0).field; // 'callers[0].rate'
 */
export function estimateRequests(scenario: Scenario, index: number): RequestEstimate {
  const caller: CallerSpec = scenario.callers[index]!;
  const end = Math.min(
    scenario.durationSeconds ?? Number.POSITIVE_INFINITY,
    caller.stopSeconds ?? Number.POSITIVE_INFINITY,
  );
  const span = Math.max(0, end - (caller.startSeconds ?? 0));
  const at = (name: string) => `callers[${index}].${name}`;
  if (Number.isFinite(span)) {
    if (caller.rate !== undefined) return { count: caller.rate * span, field: at('rate') };
    const perSecond = ((caller.workers ?? 1) * 1000) / Math.max(1, meanMs(caller.latencyMs ?? 50));
    return { count: perSecond * span, field: at('workers') };
  }
  return { count: caller.work ?? 0, field: at('work') };
}

/**
 * Throws TOLLGATE_INVALID_INPUT, one line naming the field and the estimated count, when the
 * scenario's callers together would simulate more than `cap` requests.
 * @example
 * import { checkRequestCap } from './request-estimate.js';
 * const caller = { name: 'a', token: { kind: 'anonymous' as const }, behaviour: 'greedy' as const, work: 2e9, mix: [] };
 * // checkRequestCap({ seed: 1, callers: [caller] }, 1e9) throws:
 * // simulate: about 2,000,000,000 simulated requests, over the cap of 1,000,000,000 (most from `callers[0].work` ...)
 */
export function checkRequestCap(scenario: Scenario, cap: number = REQUEST_CAP): void {
  if (cap === Number.POSITIVE_INFINITY) return;
  const estimates = scenario.callers.map((_, i) => estimateRequests(scenario, i));
  const total = estimates.reduce((sum, each) => sum + each.count, 0);
  if (total <= cap) return;
  const largest = estimates.reduce((a, b) => (b.count > a.count ? b : a));
  const count = (n: number) => Math.round(n).toLocaleString('en-US');
  throw new TollgateError(
    'TOLLGATE_INVALID_INPUT',
    `simulate: about ${count(total)} simulated requests, over the cap of ${count(cap)} (most from \`${largest.field}\`: about ${count(largest.count)}); lower it, shorten the run, or pass --no-request-cap to go on`,
  );
}

/** Where a refusal is counted: its rule's tally and the gauges it marks, found once per run of refusals. */
// Hot path of the simulator: one call per refusal; bench/sim.mjs guards its speed.
import type { LimitsResource } from '../core/limit-charge.js';
import type { LimitRule } from '../limits/limits-config.js';
import type { CallerRun, RefusalTarget } from './caller-run.js';

/**
 * The target of a refusal by `rule` of a request on `resource`; the tally is made (in `run.rules`,
 * in the order rules first refuse) at the rule's first refusal. A caller refused once is usually
 * refused again by the same rule: the last target is kept on the run and returned as it is.
 * @example
 * // refusalTarget(run, 'primary', 'core', start).tally === run.rules.primary -> true
 */
export function refusalTarget(
  run: CallerRun,
  rule: LimitRule,
  resource: LimitsResource,
  start: number,
): RefusalTarget {
  const last = run.lastRefusal;
  if (last !== null && last.rule === rule && last.resource === resource) return last;
  let tally = run.rules[rule];
  if (tally === undefined) {
    tally = { denied: 0, limitedMs: 0, limitedUntil: start, firstRefusalAt: null };
    run.rules[rule] = tally;
  }
  const gauges = run.series.gauges.filter(
    (g) => g.rule === rule && (rule !== 'primary' || g.resource === resource),
  );
  const target = { rule, resource, tally, gauges };
  run.lastRefusal = target;
  return target;
}

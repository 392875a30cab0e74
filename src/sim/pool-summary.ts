/** A summary per pool: what its members did together, beside the report's summary per identity. */
import type { LimitRule } from '../limits/limits-config.js';
import type { ExpandedPool } from './expand-scenario.js';
import type { SimulationReport } from './simulate.js';

/**
 * One pool of a run: its callers (one per token), what they were admitted and refused, and when
 * the pool's work was done (its last member's).
 * @example
 * import type { PoolSummary } from './pool-summary.js';
 * const pool: PoolSummary = { name: 'sync', unit: 'installations', size: 3, callers: ['sync[1]', 'sync[2]', 'sync[3]'], admitted: 20000, completed: 20000, work: 20000, workDoneAt: 3390, denied: {} };
 */
export interface PoolSummary {
  readonly name: string;
  readonly unit: 'users' | 'installations';
  readonly size: number;
  readonly callers: readonly string[];
  readonly admitted: number;
  readonly completed: number;
  readonly work: number | null;
  /** When every member's work was done; null when one was not, or without work. */
  readonly workDoneAt: number | null;
  readonly denied: Readonly<Partial<Record<LimitRule, number>>>;
}

/**
 * The summary of each pool of an expanded scenario, from a run's report.
 * @example
 * // poolSummaries(expandScenario(scenario).pools, simulate(expandScenario(scenario).scenario))
 * // -> [{ name: 'sync', unit: 'installations', size: 3, admitted: 20000, workDoneAt: 3390, ... }]
 */
export function poolSummaries(pools: readonly ExpandedPool[], report: SimulationReport): PoolSummary[] {
  const byName = new Map(report.callers.map((c) => [c.name, c]));
  return pools.map((pool) => {
    const members = pool.callers.map((name) => byName.get(name)!).filter((c) => c !== undefined);
    const denied: Partial<Record<LimitRule, number>> = {};
    for (const member of members)
      for (const [rule, n] of Object.entries(member.denied) as [LimitRule, number][])
        denied[rule] = (denied[rule] ?? 0) + n;
    const works = members.map((m) => (m as { work?: number | null }).work ?? null);
    const work = works.every((w) => w === null) ? null : works.reduce<number>((a, w) => a + (w ?? 0), 0);
    const done = members.map((m) => m.workDoneAt);
    return {
      name: pool.name,
      unit: pool.unit,
      size: pool.size,
      callers: pool.callers,
      admitted: members.reduce((a, m) => a + m.admitted, 0),
      completed: members.reduce((a, m) => a + m.completed, 0),
      work,
      workDoneAt: work === null || done.some((d) => d === null) ? null : Math.max(...(done as number[])),
      denied,
    };
  });
}

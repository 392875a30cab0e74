/** The pace a caller can keep without a single limited request: found by running the scenario again. */
import type { PolicyTables } from '../policy/index.js';
import type { Distribution } from './random.js';
import type { Scenario } from './scenario.js';
import { simulate } from './simulate.js';

export interface Recommendation {
  /** The largest steady rate, requests per second, that met no limit (to 3 significant digits). */
  readonly rate: number;
  /** Workers enough to keep that rate with the caller's latency. */
  readonly workers: number;
  /** Virtual seconds the work then takes, or null without `work`. */
  readonly workDoneAt: number | null;
}

/** Down to 3 significant digits: rounding up could cross into a rate that is limited. */
function significant(value: number): number {
  const scale = 10 ** (2 - Math.floor(Math.log10(value)));
  return Math.floor(value * scale) / scale;
}

function meanMs(distribution: Distribution): number {
  if (typeof distribution === 'number') return distribution;
  if ('uniform' in distribution) return (distribution.uniform[0] + distribution.uniform[1]) / 2;
  return distribution.exponential;
}

/**
 * For caller `index`: the largest steady rate (bisection over 16 runs of the whole scenario, the
 * caller made polite and paced) at which it meets no limit at all, and the workers that rate needs
 * (rate × its mean latency, plus one). Null when even one request per hour is limited.
 * @example
 * import { recommend } from './recommend.js';
 * import { shippedTables } from 'tollgate';
 * const scenario = { seed: 1, durationSeconds: 600, callers: [{ name: 'a', token: { kind: 'anonymous' as const, ip: '198.51.100.7' }, behaviour: 'greedy' as const, mix: [{ endpoint: 'GET /repos/{owner}/{repo}/issues/events', weight: 1 }] }] };
 * recommend(scenario, 0, shippedTables())?.rate; // about 0.1 (60 in the 600 s)
 */
export function recommend(scenario: Scenario, index: number, tables: PolicyTables): Recommendation | null {
  const caller = scenario.callers[index]!;
  const latency = meanMs(caller.latencyMs ?? 50);
  const at = (rate: number) => {
    // Enough workers to keep the rate even with latencies twice the mean.
    const workers = Math.max(1, Math.ceil((2 * rate * latency) / 1000) + 1);
    const callers = scenario.callers.map((each, i) =>
      i === index ? { ...each, rate, workers, behaviour: 'polite' as const } : each,
    );
    const run = simulate({ ...scenario, callers }, tables);
    const report = run.callers[index]!;
    const limited = Object.values(report.denied).reduce((sum, n) => sum + (n ?? 0), 0);
    // The rate must be reached too, not only meet no limit.
    const seconds = report.workDoneAt ?? run.seconds;
    const reached = seconds > 0 && report.sent / seconds >= 0.9 * rate;
    return { clean: limited === 0 && reached, workers, workDoneAt: report.workDoneAt };
  };
  let low = 1 / 3600;
  if (!at(low).clean) return null;
  let high = 1000;
  for (let i = 0; i < 16; i++) {
    const middle = Math.sqrt(low * high);
    if (at(middle).clean) low = middle;
    else high = middle;
  }
  const best = at(low);
  return { rate: significant(low), workers: best.workers, workDoneAt: best.workDoneAt };
}

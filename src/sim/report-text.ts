/** The human report of a simulation: a table of callers, then what limited them. */
import type { Recommendation } from './recommend.js';
import type { SimulationReport } from './simulate.js';

const number = (n: number) => n.toLocaleString('en-US');

/**
 * One line per caller, and a recommendation where one was computed.
 * @example
 * import { textReport } from './report-text.js';
 * // textReport(report, []) -> 'simulated 3,600 s (seed 42)\nscraper  anonymous, greedy  sent 72,000 ...'
 */
export function textReport(
  report: SimulationReport,
  recommendations: readonly (Recommendation | null | undefined)[],
): string {
  const lines = [
    `simulated ${number(report.seconds)} s (seed ${report.seed}), ${number(report.requests)} requests`,
  ];
  report.callers.forEach((caller, i) => {
    const denied = Object.entries(caller.denied)
      .map(([rule, n]) => `${rule} ${number(n ?? 0)}`)
      .join(', ');
    lines.push(
      `${caller.name}  ${caller.kind}, ${caller.behaviour}  sent ${number(caller.sent)}, admitted ${number(caller.admitted)}` +
        `${denied === '' ? ', never limited' : `, denied: ${denied}`}` +
        `${caller.sentWhileLimited > 0 ? `; ${number(caller.sentWhileLimited)} sent while limited (the seed warns this can get an integration banned)` : ''}` +
        `${caller.limitedSeconds > 0 ? `; limited for ${number(Math.round(caller.limitedSeconds))} s` : ''}` +
        `${caller.policyDenied > 0 ? `; ${number(caller.policyDenied)} refused by the policy (not served)` : ''}` +
        `${caller.abandoned > 0 ? `; ${number(caller.abandoned)} given up` : ''}` +
        `${caller.workDoneAt === null ? '' : `; work done at ${number(caller.workDoneAt)} s`}`,
    );
    const advice = recommendations[i];
    if (advice !== undefined && advice !== null)
      lines.push(
        `  recommendation: at most ${advice.rate} requests/s with ${advice.workers} worker${advice.workers === 1 ? '' : 's'}: no limited request` +
          `${advice.workDoneAt === null ? '' : `, work done at ${number(advice.workDoneAt)} s`}`,
      );
  });
  return `${lines.join('\n')}\n`;
}

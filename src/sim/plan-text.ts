/** The planner's advice and pool summaries as lines of the text report. */
import type { PlannerAdvice } from './planner-types.js';
import type { PoolSummary } from './pool-summary.js';
import { formatDuration } from './schedule-duration.js';

const number = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });
/** Seconds: whole above 10, else to two significant digits (a 0.05 s burst is not "0 s"). */
const seconds = (n: number) =>
  n >= 10 ? number(n) : n.toLocaleString('en-US', { maximumSignificantDigits: 2 });
const plural = (n: number, word: string) => `${number(n)} ${word}${n === 1 ? '' : 's'}`;

function howManyLine(advice: PlannerAdvice): string | null {
  const answer = advice.howMany;
  if (answer === null) return null;
  const goal = `${number(answer.work)} requests within ${formatDuration(answer.withinSeconds)}`;
  if (answer.count === null)
    return `  how many: no pool of up to ${number(answer.searchedUpTo)} ${answer.unit} finishes ${goal}`;
  const one = answer.unit === 'users' ? 'user' : 'installation';
  const fewer =
    answer.count === 1
      ? ''
      : `; ${number(answer.count - 1)} ${answer.count - 1 === 1 ? one : answer.unit} ${answer.fewerWorkDoneAt === null ? 'do not finish in the run' : `take ${number(answer.fewerWorkDoneAt)} s, too long`}`;
  return `  how many: ${answer.count} ${answer.count === 1 ? one : answer.unit} finish ${goal} (in ${number(answer.workDoneAt!)} s from its start, refusal-free${answer.plan === 'windowed' ? ', windowed plan' : ''})${fewer}`;
}

/**
 * Lines for each caller's advice: the pace, the rule that binds, when the work is done, how close
 * to the fastest refusal-free steady plan, and the polite client at full speed when it is sooner.
 * @example
 * // adviceText(advice) ->
 * // 'importer  recommended: 1.32 requests/s with 1 worker, bound by content_per_minute: 80 content requests a minute; work done at 151 s (fastest refusal-free steady plan: 150 s); refused nothing when run'
 */
export function adviceText(advice: readonly PlannerAdvice[]): string[] {
  const lines: string[] = [];
  const answered = new Set<object>();
  for (const a of advice) {
    const pace = a.unpaced
      ? `${plural(a.workers, 'worker')} sending as fast as answers come (about ${number(a.rate)} requests/s)`
      : `${a.rate} requests/s with ${plural(a.workers, 'worker')}`;
    const bound = a.binding === null ? '' : `, bound by ${a.binding.text}`;
    const done =
      a.work === null
        ? '; no work: a pace it can sustain'
        : a.workDoneAt === null
          ? '; work not done in the run'
          : `; work done at ${seconds(a.workDoneAt)} s${a.fastestWorkDoneAt === null ? '' : ` (fastest refusal-free steady plan: ${seconds(a.fastestWorkDoneAt)} s)`}`;
    const refused =
      a.refused === 0 ? '; refused nothing when run' : `; still refused ${number(a.refused)} when run`;
    lines.push(`${a.caller}  recommended: ${pace}${bound}${done}${refused}`);
    if (a.windowed !== undefined) {
      const w = a.windowed;
      const pace = w.unpaced
        ? `${plural(w.workers, 'worker')} as fast as answers come`
        : `${w.rate} requests/s with ${plural(w.workers, 'worker')}`;
      lines.push(
        `  sooner, also refusal-free: ${number(w.perWindow)} requests per window at ${pace}, then wait until ${number(w.waitSeconds)} s after the window's first request, ${w.windows} windows: work done at ${seconds(w.workDoneAt)} s`,
      );
    }
    if (a.sharedWith.length > 0)
      lines.push(`  planned together with ${a.sharedWith.join(', ')} (one budget: ${a.identity})`);
    if (a.polite?.sooner)
      lines.push(
        `  polite at full speed is sooner: work done at ${number(a.polite.workDoneAt!)} s, after ${plural(a.polite.refusals, 'refusal')} it waits out as the seed's client rules say`,
      );
    if (a.howMany !== null && !answered.has(a.howMany)) {
      answered.add(a.howMany);
      lines.push(howManyLine(a)!);
    }
  }
  return lines;
}

/**
 * One line per pool: its members and what they did together.
 * @example
 * // poolText([{ name: 'sync', unit: 'installations', size: 3, ... }]) ->
 * // ['pool sync  3 installations, 3 callers: admitted 20,000, work done at 3,390 s, never limited']
 */
export function poolText(pools: readonly PoolSummary[]): string[] {
  return pools.map((p) => {
    const denied = Object.entries(p.denied)
      .map(([rule, n]) => `${rule} ${number(n ?? 0)}`)
      .join(', ');
    return (
      `pool ${p.name}  ${plural(p.size, p.unit === 'users' ? 'user' : 'installation')}, ${plural(p.callers.length, 'caller')}: admitted ${number(p.admitted)}` +
      `${p.work === null ? '' : p.workDoneAt === null ? `, ${number(p.completed)} of ${number(p.work)} done` : `, work done at ${number(p.workDoneAt)} s`}` +
      `${denied === '' ? ', never limited' : `, denied: ${denied}`}`
    );
  });
}

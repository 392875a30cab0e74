/** The planner's advice in the HTML page: what to run, the rule that binds, when it is done, checked. */
import type { PlannerAdvice } from './planner-types.js';
import { duration, escapeHtml, number } from './report-format.js';

/** A rate as the planner gives it (3 significant digits), never rounded further. */
const rate = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 6 });

const plural = (n: number, word: string) => `${number(n)} ${word}${n === 1 ? '' : 's'}`;

function howMany(answer: NonNullable<PlannerAdvice['howMany']>): string {
  const one = answer.unit === 'users' ? 'user' : 'installation';
  const goal = `${number(answer.work)} requests within ${duration(answer.withinSeconds)}`;
  if (answer.count === null) return `No pool of up to ${plural(answer.searchedUpTo, one)} finishes ${goal}.`;
  const fewer =
    answer.count === 1
      ? ''
      : ` ${plural(answer.count - 1, one)} ${answer.fewerWorkDoneAt === null ? 'do not finish in the run' : `finish at ${duration(answer.fewerWorkDoneAt)}, too late`}.`;
  return `<strong>${plural(answer.count, one)}</strong> finish ${goal} (done at ${duration(answer.workDoneAt ?? 0)}, refusal-free${answer.plan === 'windowed' ? ', windowed plan' : ''}).${fewer}`;
}

function windowed(plan: NonNullable<PlannerAdvice['windowed']>): string {
  const pace = plan.unpaced
    ? `${plural(plan.workers, 'worker')} as fast as answers come`
    : `${rate(plan.rate)} requests/s with ${plural(plan.workers, 'worker')}`;
  return `Sooner, also refusal-free: ${number(plan.perWindow)} requests per window at ${pace}, then wait until ${duration(plan.waitSeconds)} after the window's first request, ${plural(plan.windows, 'window')}: work done at <strong>${duration(plan.workDoneAt)}</strong>.`;
}

/**
 * One item per caller's advice.
 * @example
 * import { adviceItem } from './report-html-advice.js';
 * // adviceItem(report.recommendations[0]) -> '<li data-advice="importer"><strong>importer</strong>: 1.32 requests/s ...'
 */
export function adviceItem(advice: PlannerAdvice, showHowMany = true): string {
  const pace = advice.unpaced
    ? `${plural(advice.workers, 'worker')} sending as fast as answers come (about ${rate(advice.rate)} requests/s)`
    : `${rate(advice.rate)} requests/s with ${plural(advice.workers, 'worker')}`;
  const done =
    advice.work === null
      ? 'no work: a pace it can sustain'
      : advice.workDoneAt === null
        ? 'work not done in the run'
        : `work done at <strong>${duration(advice.workDoneAt)}</strong>${advice.fastestWorkDoneAt === null ? '' : ` (fastest refusal-free steady plan: ${duration(advice.fastestWorkDoneAt)})`}`;
  const notes = [
    advice.binding === null ? '' : `Bound by ${escapeHtml(advice.binding.text)}.`,
    advice.refused === 0 ? 'Refused nothing when run.' : `Still refused ${number(advice.refused)} when run.`,
    advice.windowed === undefined ? '' : windowed(advice.windowed),
    advice.sharedWith.length === 0
      ? ''
      : `Planned together with ${escapeHtml(advice.sharedWith.join(', '))} (one budget: ${escapeHtml(advice.identity)}).`,
    advice.polite?.sooner === true && advice.polite.workDoneAt !== null
      ? `Polite at full speed is sooner: done at ${duration(advice.polite.workDoneAt)}, after ${plural(advice.polite.refusals, 'refusal')} it waits out as the seed's client rules say.`
      : '',
    advice.howMany === null || !showHowMany ? '' : howMany(advice.howMany),
  ].filter((note) => note !== '');
  return `<li data-advice="${escapeHtml(advice.caller)}"><strong>${escapeHtml(advice.caller)}</strong>: ${pace}; ${done}. ${notes.join(' ')}</li>`;
}

/**
 * The page's recommendation section, or nothing when `--recommend` was not asked.
 * @example
 * import { adviceSection } from './report-html-advice.js';
 * adviceSection(undefined); // ''
 */
export function adviceSection(recommendations: readonly PlannerAdvice[] | undefined): string {
  if (recommendations === undefined || recommendations.length === 0) return '';
  // A pool's members share one answer to "how many": said once, under the first of them.
  const answered = new Set<string>();
  const items = recommendations.map((advice) => {
    const key = JSON.stringify(advice.howMany);
    const first = !answered.has(key);
    answered.add(key);
    return adviceItem(advice, first);
  });
  return `<section class="advice"><h2>Recommendation</h2><ul>${items.join('')}</ul></section>`;
}

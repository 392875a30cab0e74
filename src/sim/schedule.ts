/**
 * When a caller runs: a start offset, a length, a cron-like repetition, bursts. Expanded before
 * the engine runs onto the engine's one interval per caller (`startSeconds`, `stopSeconds`): a
 * repeated caller becomes one caller per run (`name#1`, `name#2`, ...), all on its one token, so
 * they share its identity's budget as the runs of one cron job do.
 */

/**
 * A caller's schedule, in virtual seconds from the run's start (scenario files may write
 * durations as `10m`, `1h30m`; see `durationSeconds`).
 * @example
 * import type { Schedule } from './schedule.js';
 * // a job that starts 10 minutes in and runs 5 minutes of every hour, 24 times
 * const nightly: Schedule = { start: 600, every: 3600, for: 300, times: 24 };
 */
export interface Schedule {
  /** When the first run starts. Default 0. */
  readonly start?: number;
  /** The period of a repeated caller; without it the caller runs once. */
  readonly every?: number;
  /** How long each run may last; default until the next run starts, or the scenario ends. */
  readonly for?: number;
  /** How many runs; default as many as start before `durationSeconds`. Needed with `every` when the scenario has no duration. */
  readonly times?: number;
  /**
   * Each run sends this many requests at once (as many workers, no pacing) and is done: a burst.
   * Replaces the caller's `work` and `workers`.
   */
  readonly burst?: number;
}

/** One run of a scheduled caller: its interval, with `stop` null when it lasts to the end. */
export interface ScheduledRun {
  readonly start: number;
  readonly stop: number | null;
}

/** Most runs one caller's schedule may expand to: a report line and a series each. */
export const MAX_RUNS = 1000;

/**
 * What is wrong with `schedule` for a scenario of `durationSeconds` (undefined: until the work is
 * done): one message per problem, each naming the field, empty when it is sound.
 * @example
 * import { scheduleProblems } from './schedule.js';
 * scheduleProblems({ every: 3600, for: 7200 }, 86_400);
 * // ['`for` (7200 s) is longer than `every` (3600 s): runs of one caller would overlap']
 */
export function scheduleProblems(schedule: Schedule, durationSeconds: number | undefined): string[] {
  const problems: string[] = [];
  const { start = 0, every, times } = schedule;
  if (durationSeconds !== undefined && start >= durationSeconds)
    problems.push(
      `\`start\` (${start} s) is not before the scenario's end (${durationSeconds} s): the caller would never run`,
    );
  if (every !== undefined && every <= 0) problems.push('`every` must be above 0 s');
  if (schedule.for !== undefined && schedule.for <= 0) problems.push('`for` must be above 0 s');
  if (every !== undefined && schedule.for !== undefined && schedule.for > every)
    problems.push(
      `\`for\` (${schedule.for} s) is longer than \`every\` (${every} s): runs of one caller would overlap`,
    );
  if (times !== undefined && every === undefined && times > 1)
    problems.push(`\`times\` (${times}) needs \`every\`: the period between runs`);
  if (every !== undefined && times === undefined && durationSeconds === undefined)
    problems.push("`every` needs `times` or the scenario's `duration_seconds`: the runs would never end");
  if (problems.length === 0 && every !== undefined) {
    const count = times ?? Math.ceil((durationSeconds! - start) / every);
    if (count > MAX_RUNS)
      problems.push(
        `\`every\` (${every} s) gives ${count} runs; at most ${MAX_RUNS}: use a longer period or \`times\``,
      );
  }
  return problems;
}

/**
 * The runs of a schedule (assumed sound: see `scheduleProblems`), in order.
 * @example
 * import { scheduledRuns } from './schedule.js';
 * scheduledRuns({ start: 600, every: 3600, for: 300 }, 7200);
 * // [{ start: 600, stop: 900 }, { start: 4200, stop: 4500 }]
 */
export function scheduledRuns(schedule: Schedule, durationSeconds: number | undefined): ScheduledRun[] {
  const start = schedule.start ?? 0;
  const { every } = schedule;
  if (every === undefined) return [{ start, stop: schedule.for === undefined ? null : start + schedule.for }];
  const count = schedule.times ?? Math.ceil((durationSeconds! - start) / every);
  const runs: ScheduledRun[] = [];
  for (let k = 0; k < count; k++) {
    const from = start + k * every;
    runs.push({ start: from, stop: from + (schedule.for ?? every) });
  }
  return runs;
}

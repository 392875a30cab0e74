/** Durations as a scenario or the CLI writes them: `90`, `90s`, `10m`, `1h30m`, `2d`. */

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };
const WHOLE = /^(?:\d+(?:\.\d+)?[smhd])+$/;
const PART = /(\d+(?:\.\d+)?)([smhd])/g;

/**
 * Seconds of a duration: a number (seconds) or a text of number-unit parts (`s`, `m`, `h`, `d`),
 * e.g. `'1h30m'` is 5,400. Null when `value` is neither (the caller names the field and the
 * valid forms, so the message says where the mistake is).
 * @example
 * import { durationSeconds } from './schedule-duration.js';
 * durationSeconds('10m'); // 600
 * durationSeconds(45); // 45
 * durationSeconds('10 minutes'); // null
 */
export function durationSeconds(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) return Number(text);
  if (!WHOLE.test(text)) return null;
  let seconds = 0;
  for (const [, amount, unit] of text.matchAll(PART)) seconds += Number(amount) * UNIT_SECONDS[unit!]!;
  return seconds;
}

/**
 * The forms `durationSeconds` reads, for messages.
 * @example
 * import { DURATION_FORMS } from './schedule-duration.js';
 * console.error(`--duration: \`10 minutes\` is not a duration; use ${DURATION_FORMS}`);
 */
export const DURATION_FORMS = 'seconds as a number, or a text such as `90s`, `10m`, `1h30m`, `2d`';

/**
 * A duration for people: `45 s`, `10 min`, `2 h 5 min`, `3 d 4 h`; rounded to whole seconds.
 * @example
 * import { formatDuration } from './schedule-duration.js';
 * formatDuration(7_380); // '2 h 3 min'
 */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 120) return `${s.toLocaleString('en-US')} s`;
  if (s < 7_200 && s % 3600 !== 0) return `${Math.floor(s / 60)} min${s % 60 === 0 ? '' : ` ${s % 60} s`}`;
  if (s < 172_800)
    return `${Math.floor(s / 3600)} h${s % 3600 < 60 ? '' : ` ${Math.floor((s % 3600) / 60)} min`}`;
  return `${Math.floor(s / 86_400)} d${s % 86_400 < 3600 ? '' : ` ${Math.floor((s % 86_400) / 3600)} h`}`;
}

/** The HTML report's time axis: one per caller, shared by every chart, in a unit fit for the run's length. */

/** A unit of the time axis, with its length in seconds. */
export interface TimeUnit {
  readonly name: 'seconds' | 'minutes' | 'hours' | 'days';
  readonly short: 's' | 'min' | 'h' | 'd';
  readonly seconds: number;
}

/** The x-domain `[0, end]` in virtual seconds, its unit, and where its labelled ticks fall. */
export interface TimeAxis {
  readonly end: number;
  readonly unit: TimeUnit;
  /** Tick positions in virtual seconds, from 0, evenly spaced, none past `end`. */
  readonly ticks: readonly number[];
}

const UNITS: readonly (TimeUnit & { upTo: number; steps: readonly number[] })[] = [
  { name: 'seconds', short: 's', seconds: 1, upTo: 180, steps: [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 20, 30] },
  { name: 'minutes', short: 'min', seconds: 60, upTo: 3 * 3600, steps: [1, 2, 5, 10, 15, 20, 30] },
  { name: 'hours', short: 'h', seconds: 3600, upTo: 3 * 86_400, steps: [1, 2, 3, 6, 12, 24] },
  {
    name: 'days',
    short: 'd',
    seconds: 86_400,
    upTo: Number.POSITIVE_INFINITY,
    steps: [1, 2, 5, 7, 14, 30, 60, 90],
  },
];

/** At most this many intervals between ticks: labels stay readable on a 760-pixel axis. */
const MAX_INTERVALS = 8;

/**
 * The axis for a run of `seconds`: seconds up to 3 minutes, minutes up to 3 hours, hours up to 3
 * days, days beyond; the smallest round step that needs at most 8 intervals.
 * @example
 * import { timeAxis } from './report-html-axis.js';
 * timeAxis(3600).ticks.length; // 7 (0, 10, ..., 60 minutes)
 * timeAxis(43_200).unit.name; // 'hours'
 */
export function timeAxis(seconds: number): TimeAxis {
  const end = Number.isFinite(seconds) && seconds > 0 ? seconds : 1;
  const unit = UNITS.find((each) => end <= each.upTo)!;
  const span = end / unit.seconds;
  let step = unit.steps.find((each) => span / each <= MAX_INTERVALS);
  // Past the largest listed step (runs of years): powers of ten times 1, 2 or 5.
  for (let scale = 100; step === undefined; scale *= 10)
    step = [1, 2, 5].map((each) => each * scale).find((each) => span / each <= MAX_INTERVALS);
  const ticks: number[] = [];
  // toPrecision: 3 × 0.2 is 0.6, not 0.6000000000000001.
  for (let i = 0; i * step <= span + 1e-9; i++) ticks.push(Number((i * step).toPrecision(12)) * unit.seconds);
  return { end, unit: { name: unit.name, short: unit.short, seconds: unit.seconds }, ticks };
}

/**
 * A tick's label in the axis unit: `90` minutes reads `90`, `1.5` hours `1.5`.
 * @example
 * import { tickLabel, timeAxis } from './report-html-axis.js';
 * tickLabel(timeAxis(3600), 1800); // '30'
 */
export function tickLabel(axis: TimeAxis, seconds: number): string {
  return (Math.round((seconds / axis.unit.seconds) * 100) / 100).toLocaleString('en-US');
}

/** The strict window mode: never more than C in ANY window of the rule's length, with bounded state. */
// Hot path: one check per strict rule per admission; bench/limits.mjs guards its speed.
//
// A window of W ms is cut into K = 6 sub-windows of ceil(W / K) ms, numbered from the epoch. A
// ring of K + 1 counters holds what was admitted in the newest K + 1 of them, and the number of
// the newest. A request is admitted when everything counted in the sub-windows that overlap the
// last W ms (at most K + 1 of them), plus its cost, fits the capacity. Every window of W ms that
// ends at an admission lies inside the sub-windows counted then, so no window of W ms ever holds
// more than C. The price: a sub-window leaves the count only when all of it is older than W, so a
// steady caller gets about C * K / (K + 1) per window (86%), and a burst of C waits up to
// W + W / K for its oldest sub-window to leave.
//
// Worked example, 900 points per 60 s (sub-windows of 10 s): 900 points at t = 5 s fill
// sub-window 0; at t = 65 s sub-window 0 still overlaps (5 s, 65 s], so nothing more fits until
// t = 70 s, when sub-window 0 leaves: then 900 points fit again.

/** Sub-windows per window. */
export const STRICT_SUB_WINDOWS = 6;
const RING = STRICT_SUB_WINDOWS + 1;
/** Numbers one strict rule keeps: the newest sub-window's number, then the ring of counters. */
export const STRICT_RULE_WIDTH = 1 + RING;
/** The rules a window mode applies to, in the order their state is laid out. */
export const WINDOWED_RULES = [
  'rest_points',
  'graphql_points',
  'content_per_minute',
  'content_per_hour',
] as const;
export type WindowedRule = (typeof WINDOWED_RULES)[number];
/** Numbers the strict state of one identity takes (every windowed rule, strict or not). */
export const STRICT_WIDTH = WINDOWED_RULES.length * STRICT_RULE_WIDTH;

/** The oldest sub-window still counted at sub-window `current` (numbers start at 0, the epoch). */
function oldestCounted(current: number, newest: number): number {
  return Math.max(0, current - STRICT_SUB_WINDOWS, newest - STRICT_SUB_WINDOWS);
}

function subWindowMs(windowMs: number): number {
  return Math.ceil(windowMs / STRICT_SUB_WINDOWS);
}

/**
 * What the rule at `base` of `row` counts at time `t` (ms): everything admitted in the sub-windows
 * that overlap the last `windowMs`.
 * @example
 * import { strictCharge, strictCount } from './strict-window.js';
 * const row = new Float64Array(8);
 * strictCharge(row, 0, 5_000, 60_000, 900);
 * strictCount(row, 0, 65_000, 60_000); // 900 (sub-window 0 still overlaps (5 s, 65 s])
 * strictCount(row, 0, 70_000, 60_000); // 0
 */
export function strictCount(row: ArrayLike<number>, base: number, t: number, windowMs: number): number {
  const newest = row[base]!;
  const current = Math.max(Math.floor(t / subWindowMs(windowMs)), newest);
  let count = 0;
  for (let n = oldestCounted(current, newest); n <= newest; n++) count += row[base + 1 + (n % RING)]!;
  return count;
}

/**
 * How long after `t` a request of `cost` fits a capacity of `capacity` (0: it fits now): until
 * enough of the oldest counted sub-windows have left.
 * @example
 * import { strictCharge, strictWaitMs } from './strict-window.js';
 * const row = new Float64Array(8);
 * strictCharge(row, 0, 5_000, 60_000, 900);
 * strictWaitMs(row, 0, 65_000, 60_000, 5, 900); // 5000 (sub-window 0 leaves at 70 s)
 */
export function strictWaitMs(
  row: ArrayLike<number>,
  base: number,
  t: number,
  windowMs: number,
  cost: number,
  capacity: number,
): number {
  const sub = subWindowMs(windowMs);
  const newest = row[base]!;
  const current = Math.max(Math.floor(t / sub), newest);
  let count = strictCount(row, base, t, windowMs);
  if (count + cost <= capacity) return 0;
  for (let n = oldestCounted(current, newest); n <= newest; n++) {
    count -= row[base + 1 + (n % RING)]!;
    // Sub-window n overlaps the last W ms until (n + K + 1) * sub.
    if (count + cost <= capacity) return Math.max(1, (n + RING) * sub - t);
  }
  return Math.max(1, (newest + RING) * sub - t);
}

/**
 * Counts `cost` at time `t`: the sub-windows that left are cleared, the current one charged.
 * @example
 * import { strictCharge } from './strict-window.js';
 * const row = new Float64Array(8);
 * strictCharge(row, 0, 12_000, 60_000, 5); // row: [1, 0, 5, 0, 0, 0, 0, 0]
 */
export function strictCharge(
  row: { [index: number]: number },
  base: number,
  t: number,
  windowMs: number,
  cost: number,
): void {
  const newest = row[base]!;
  // A clock that stepped back charges the newest sub-window: counted, never lost.
  const current = Math.max(Math.floor(t / subWindowMs(windowMs)), newest);
  if (current > newest) {
    const from = Math.max(newest + 1, current - STRICT_SUB_WINDOWS);
    for (let n = from; n <= current; n++) row[base + 1 + (n % RING)] = 0;
    row[base] = current;
  }
  row[base + 1 + (current % RING)]! += cost;
}

/**
 * When the rule's state at `base` counts nothing any more (ms; 0 for a rule never charged).
 * @example
 * import { strictCharge, strictExpiresAt } from './strict-window.js';
 * const row = new Float64Array(8);
 * strictCharge(row, 0, 12_000, 60_000, 5);
 * strictExpiresAt(row, 0, 60_000); // 80000
 */
export function strictExpiresAt(row: ArrayLike<number>, base: number, windowMs: number): number {
  let any = false;
  for (let i = 1; i <= RING; i++) if (row[base + i]! > 0) any = true;
  return any ? (row[base]! + RING) * subWindowMs(windowMs) : 0;
}

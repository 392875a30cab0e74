/** The sliding log: a rule's (time, weight) entries inside its window, exact at the boundary. */
// Hot path: read or updated for every log rule of every event; bench/limits.mjs guards its speed.
//
// A rule "at most C per W" counts, at time t, the weight of the entries stamped in (t - W, t]: an
// entry stamped s leaves the count at exactly s + W. A request of cost k is admitted when
// count + k <= C, so no half-open window of W ms ever holds more than C (each admission checks the
// window that ends at it, and a window that ends between admissions holds no more than the one
// ending at its last admission). Nothing else is refused: the log is exact. Entries at the same ms
// are merged, so a log holds at most C entries (each weighs >= 1) and no more than W of them.
//
// Worked example, 900 points per 60 s: 900 GETs at t = 0..899 ms fill it; at t = 60,000 the entry
// at 0 leaves, so one GET fits; at t = 60,000 + 899 every entry has left.

/**
 * One rule's log: entries `head` to the end of `times`/`weights`, oldest first, and the sum of
 * their weights. INVARIANT: times ascend strictly (same-ms charges merge), and after any event
 * that writes the state, no entry is later than the identity's time (`at`) and none has left.
 * @example
 * import { createSlidingLog, type SlidingLog } from './sliding-log.js';
 * const log: SlidingLog = createSlidingLog(); // { times: [], weights: [], head: 0, sum: 0 }
 */
export interface SlidingLog {
  times: number[];
  weights: number[];
  head: number;
  sum: number;
}

/**
 * An empty log.
 * @example
 * import { createSlidingLog } from './sliding-log.js';
 * createSlidingLog().sum; // 0
 */
export function createSlidingLog(): SlidingLog {
  return { times: [], weights: [], head: 0, sum: 0 };
}

/**
 * Entries held (left ones included until the next `settleLog`).
 * @example
 * import { createSlidingLog, logSize } from './sliding-log.js';
 * logSize(createSlidingLog()); // 0
 */
export function logSize(log: SlidingLog): number {
  return log.times.length - log.head;
}

/**
 * The weight counted at `t`: entries stamped after `t - spanMs` (entries stamped after `t`, left
 * by a clock that stepped back, count too). Reads only.
 * @example
 * import { chargeLog, createSlidingLog, liveSum } from './sliding-log.js';
 * const log = createSlidingLog();
 * chargeLog(log, 1_000, 5, 1);
 * liveSum(log, 60_999, 60_000); // 5
 * liveSum(log, 61_000, 60_000); // 0
 */
export function liveSum(log: SlidingLog, t: number, spanMs: number): number {
  const edge = t - spanMs;
  const { times, weights } = log;
  let sum = log.sum;
  for (let i = log.head; i < times.length && times[i]! <= edge; i++) sum -= weights[i]!;
  return sum;
}

/**
 * Milliseconds after `t` until `need` more fits under `capacity` (0: it fits now): until enough
 * of the oldest entries have left, each at its stamp + `spanMs`. A need above the capacity never
 * fits; its wait is one span from the newest entry counted (or one span).
 * @example
 * import { chargeLog, createSlidingLog, logWaitMs } from './sliding-log.js';
 * const log = createSlidingLog();
 * chargeLog(log, 1_000, 900, 1);
 * logWaitMs(log, 30_000, 60_000, 1, 900); // 31000 (the entry at 1 s leaves at 61 s)
 */
export function logWaitMs(
  log: SlidingLog,
  t: number,
  spanMs: number,
  need: number,
  capacity: number,
): number {
  const edge = t - spanMs;
  const { times, weights } = log;
  let sum = liveSum(log, t, spanMs);
  if (sum + need <= capacity) return 0;
  for (let i = log.head; i < times.length; i++) {
    if (times[i]! <= edge) continue;
    sum -= weights[i]!;
    if (sum + need <= capacity) return Math.max(1, times[i]! + spanMs - t);
  }
  const newest = times.length > log.head ? times[times.length - 1]! : edge;
  return newest > edge ? Math.max(1, newest + spanMs - t) : spanMs;
}

/**
 * Drops the entries that left by `t` (stamped at or before `t - spanMs`): they count for nothing
 * at `t` or later, so dropping them changes no answer. An admission does it even when it refuses,
 * so a caller refused for an hour costs one look per log, not one per entry that left.
 * @example
 * import { chargeLog, createSlidingLog, dropLeft, logSize } from './sliding-log.js';
 * const log = createSlidingLog();
 * chargeLog(log, 1_000, 1, 1);
 * dropLeft(log, 61_000, 60_000);
 * logSize(log); // 0
 */
export function dropLeft(log: SlidingLog, t: number, spanMs: number): void {
  const edge = t - spanMs;
  const { times, weights } = log;
  let head = log.head;
  if (head === times.length || times[head]! > edge) return;
  while (head < times.length && times[head]! <= edge) log.sum -= weights[head++]!;
  if (head === times.length) {
    times.length = 0;
    weights.length = 0;
    log.head = 0;
    log.sum = 0;
    return;
  }
  if (head > 16 && head * 2 > times.length) {
    // Compacted in place: splice would allocate an array of the entries it removes.
    const size = times.length - head;
    times.copyWithin(0, head);
    weights.copyWithin(0, head);
    times.length = size;
    weights.length = size;
    head = 0;
  }
  log.head = head;
}

/**
 * Drops the entries that left by `t` and restamps at `t` the entries stamped after it (a clock
 * that stepped back: they count for one span from now, never longer, never less).
 * @example
 * import { chargeLog, createSlidingLog, logSize, settleLog } from './sliding-log.js';
 * const log = createSlidingLog();
 * chargeLog(log, 1_000, 1, 1);
 * settleLog(log, 61_000, 60_000);
 * logSize(log); // 0
 */
export function settleLog(log: SlidingLog, t: number, spanMs: number): void {
  dropLeft(log, t, spanMs);
  const { times, weights } = log;
  const head = log.head;
  if (times.length === head || times[times.length - 1]! <= t) return;
  let moved = 0;
  while (times.length > head && times[times.length - 1]! > t) {
    moved += weights.pop()!;
    times.pop();
  }
  if (times.length > head && times[times.length - 1] === t) weights[weights.length - 1]! += moved;
  else {
    times.push(t);
    weights.push(moved);
  }
}

/**
 * Adds `weight` at `t`, stamped at the start of its `quantumMs` (1 for an exact log): merged into
 * the newest entry when that has the same stamp. Call `settleLog` at `t` first.
 * @example
 * import { chargeLog, createSlidingLog, logSize } from './sliding-log.js';
 * const log = createSlidingLog();
 * chargeLog(log, 1_500, 30, 1000);
 * chargeLog(log, 1_999, 10, 1000);
 * log.times; // [1000]: one entry of 40
 */
export function chargeLog(log: SlidingLog, t: number, weight: number, quantumMs: number): void {
  if (!(weight > 0)) return;
  const stamp = quantumMs === 1 ? t : t - (t % quantumMs);
  const { times, weights } = log;
  const last = times.length - 1;
  log.sum += weight;
  if (last >= log.head && times[last]! >= stamp) weights[last]! += weight;
  else {
    times.push(stamp);
    weights.push(weight);
  }
}

/**
 * The entries stamped after `after` (default: all) as `[time, weight, time, weight, ...]`: how
 * IdentityState shows a log. A log nobody read since it was last charged may still hold entries
 * that have left: `after` = the identity's time minus the span shows only those still counted.
 * @example
 * import { chargeLog, createSlidingLog, flattenLog } from './sliding-log.js';
 * const log = createSlidingLog();
 * chargeLog(log, 7, 2, 1);
 * flattenLog(log); // [7, 2]
 * flattenLog(log, 7); // []
 */
export function flattenLog(log: SlidingLog, after = Number.NEGATIVE_INFINITY): number[] {
  const flat: number[] = [];
  for (let i = log.head; i < log.times.length; i++)
    if (log.times[i]! > after) flat.push(log.times[i]!, log.weights[i]!);
  return flat;
}

/**
 * Replaces `log`'s entries with the flat `[time, weight, ...]` list `flat`.
 * @example
 * import { createSlidingLog, loadLog } from './sliding-log.js';
 * const log = createSlidingLog();
 * loadLog(log, [7, 2, 9, 3]);
 * log.sum; // 5
 */
export function loadLog(log: SlidingLog, flat: readonly number[] | undefined): void {
  log.times.length = 0;
  log.weights.length = 0;
  log.head = 0;
  log.sum = 0;
  if (flat === undefined) return;
  for (let i = 0; i + 1 < flat.length; i += 2) {
    log.times.push(flat[i]!);
    log.weights.push(flat[i + 1]!);
    log.sum += flat[i + 1]!;
  }
}

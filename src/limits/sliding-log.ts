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
 * One rule's log: a ring of `cap` (a power of two) entries `(time, weight)` stored side by side in
 * `buf` from `base` (entry k at `base + 2k`), `size` of them from slot `head`, oldest first, and
 * the sum of their weights. `grow` makes room for one more entry when the ring is full (a store
 * keeping logs in a shared buffer moves the ring). INVARIANT: times ascend strictly (same-ms
 * charges merge), and after any event that reads the log, no entry has left and none is later
 * than the identity's time (`at`).
 * @example
 * import { createSlidingLog, type SlidingLog } from './sliding-log.js';
 * const log: SlidingLog = createSlidingLog(); // empty: size 0, sum 0
 */
export interface SlidingLog {
  buf: Float64Array;
  base: number;
  cap: number;
  head: number;
  size: number;
  sum: number;
  grow(log: SlidingLog): void;
}

/** A log with its own buffer grows by doubling it, the entries moved to the start in order. */
function growOwn(log: SlidingLog): void {
  const cap = log.cap * 2;
  const buf = new Float64Array(cap * 2);
  for (let j = 0; j < log.size; j++) {
    const from = log.base + 2 * ((log.head + j) & (log.cap - 1));
    buf[2 * j] = log.buf[from]!;
    buf[2 * j + 1] = log.buf[from + 1]!;
  }
  log.buf = buf;
  log.base = 0;
  log.cap = cap;
  log.head = 0;
}

/**
 * An empty log with a buffer of its own.
 * @example
 * import { createSlidingLog } from './sliding-log.js';
 * createSlidingLog().sum; // 0
 */
export function createSlidingLog(): SlidingLog {
  return { buf: new Float64Array(8), base: 0, cap: 4, head: 0, size: 0, sum: 0, grow: growOwn };
}

/**
 * Where entry `j` (0: the oldest) of `log` starts in its buffer: its time, then its weight.
 * @example
 * import { chargeLog, createSlidingLog, entryAt } from './sliding-log.js';
 * const log = createSlidingLog();
 * chargeLog(log, 7, 2, 1);
 * log.buf[entryAt(log, 0)]; // 7
 */
export function entryAt(log: SlidingLog, j: number): number {
  return log.base + 2 * ((log.head + j) & (log.cap - 1));
}

/**
 * Entries held (left ones included until the log is next read).
 * @example
 * import { createSlidingLog, logSize } from './sliding-log.js';
 * logSize(createSlidingLog()); // 0
 */
export function logSize(log: SlidingLog): number {
  return log.size;
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
  const buf = log.buf;
  let sum = log.sum;
  for (let j = 0; j < log.size; j++) {
    const at = entryAt(log, j);
    if (buf[at]! > edge) break;
    sum -= buf[at + 1]!;
  }
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
  const buf = log.buf;
  let sum = liveSum(log, t, spanMs);
  if (sum + need <= capacity) return 0;
  for (let j = 0; j < log.size; j++) {
    const at = entryAt(log, j);
    if (buf[at]! <= edge) continue;
    sum -= buf[at + 1]!;
    if (sum + need <= capacity) return Math.max(1, buf[at]! + spanMs - t);
  }
  const newest = log.size > 0 ? buf[entryAt(log, log.size - 1)]! : edge;
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
  const buf = log.buf;
  const mask = log.cap - 1;
  let { head, size, sum } = log;
  if (size === 0 || buf[log.base + 2 * head]! > edge) return;
  while (size > 0) {
    const at = log.base + 2 * head;
    if (buf[at]! > edge) break;
    sum -= buf[at + 1]!;
    head = (head + 1) & mask;
    size--;
  }
  log.head = size === 0 ? 0 : head;
  log.size = size;
  log.sum = size === 0 ? 0 : sum;
}

/** Appends an entry (the newest), growing the ring when it is full. */
function push(log: SlidingLog, time: number, weight: number): void {
  if (log.size === log.cap) log.grow(log);
  const at = entryAt(log, log.size);
  log.buf[at] = time;
  log.buf[at + 1] = weight;
  log.size++;
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
  const buf = log.buf;
  if (log.size === 0 || buf[entryAt(log, log.size - 1)]! <= t) return;
  let moved = 0;
  while (log.size > 0 && buf[entryAt(log, log.size - 1)]! > t) {
    moved += buf[entryAt(log, log.size - 1) + 1]!;
    log.size--;
  }
  if (log.size > 0 && buf[entryAt(log, log.size - 1)] === t) buf[entryAt(log, log.size - 1) + 1]! += moved;
  else push(log, t, moved);
}

/**
 * Adds `weight` at `t`, stamped at the start of its `quantumMs` (1 for an exact log): merged into
 * the newest entry when that has the same stamp. Call `settleLog` at `t` first.
 * @example
 * import { chargeLog, createSlidingLog, flattenLog } from './sliding-log.js';
 * const log = createSlidingLog();
 * chargeLog(log, 1_500, 30, 1000);
 * chargeLog(log, 1_999, 10, 1000);
 * flattenLog(log); // [1000, 40]: one entry of 40
 */
export function chargeLog(log: SlidingLog, t: number, weight: number, quantumMs: number): void {
  if (!(weight > 0)) return;
  const stamp = quantumMs === 1 ? t : t - (t % quantumMs);
  log.sum += weight;
  if (log.size > 0) {
    const last = entryAt(log, log.size - 1);
    if (log.buf[last]! >= stamp) {
      log.buf[last + 1]! += weight;
      return;
    }
  }
  push(log, stamp, weight);
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
  for (let j = 0; j < log.size; j++) {
    const at = entryAt(log, j);
    if (log.buf[at]! > after) flat.push(log.buf[at]!, log.buf[at + 1]!);
  }
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
  log.head = 0;
  log.size = 0;
  log.sum = 0;
  if (flat === undefined) return;
  for (let i = 0; i + 1 < flat.length; i += 2) {
    push(log, flat[i]!, flat[i + 1]!);
    log.sum += flat[i + 1]!;
  }
}

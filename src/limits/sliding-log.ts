/** A sliding log read out of a store: its (time, weight) entries, oldest first, in a ring of its own. */
// The kernel does not use this form: it works on the row and the log arena (open-logs.ts). A store
// reading a state back (the Redis store's `read`) loads a packed entry here (loadSlot) to show it.

/**
 * One rule's log: a ring of `cap` (a power of two) entries `(time, weight)` stored side by side in
 * `buf` from `base` (entry k at `base + 2k`), `size` of them from slot `head`, oldest first, and
 * the sum of their weights.
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
}

/**
 * An empty log with a buffer of its own.
 * @example
 * import { createSlidingLog } from './sliding-log.js';
 * createSlidingLog().sum; // 0
 */
export function createSlidingLog(): SlidingLog {
  return { buf: new Float64Array(8), base: 0, cap: 4, head: 0, size: 0, sum: 0 };
}

/**
 * The entries stamped after `after` (default: all) as `[time, weight, time, weight, ...]`: how
 * IdentityState shows a log.
 * @example
 * import { createSlidingLog, flattenLog } from './sliding-log.js';
 * import { loadSlot } from './log-slot.js';
 * const log = createSlidingLog();
 * loadSlot(log, 4_194_304_001, 1_000);
 * flattenLog(log); // [750, 1]
 * flattenLog(log, 750); // []
 */
export function flattenLog(log: SlidingLog, after = Number.NEGATIVE_INFINITY): number[] {
  const flat: number[] = [];
  for (let j = 0; j < log.size; j++) {
    const at = log.base + 2 * ((log.head + j) & (log.cap - 1));
    if (log.buf[at]! > after) flat.push(log.buf[at]!, log.buf[at + 1]!);
  }
  return flat;
}

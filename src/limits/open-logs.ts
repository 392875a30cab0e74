/** The sliding logs an event works on, read straight from the row's numbers and the log arena. */
// Hot path: every log an event reads or charges goes through here; bench/limits.mjs guards its speed.
//
// A rule "at most C per W" counts, at time t, the weight of the entries stamped in (t - W, t]: an
// entry stamped s leaves the count at exactly s + W. A request of cost k is admitted when
// count + k <= C, so no half-open window of W ms ever holds more than C (each admission checks the
// window that ends at it, and a window that ends between admissions holds no more than the one
// ending at its last admission). Nothing else is refused: the log is exact. Entries at the same ms
// are merged, so a log holds at most C entries (each weighs >= 1) and no more than W of them.
// Worked example, 900 points per 60 s: 900 GETs at t = 0..899 ms fill it; at t = 60,000 the entry
// at 0 leaves, so one GET fits; at t = 60,000 + 899 every entry has left.
//
// Where a log lives (its rule's number in the row; see log-slot.ts): 0 when empty, a packed single
// entry (age x 2^24 + weight, the age counted back from the row's time), or a ring in a block of
// the arena (-(block + 2)). Opening a log copies its header (or its packed entry) into `open`, one
// typed array shared by every event: no object per log, and no time passed between functions as
// an argument (V8 boxes a double it passes to a function it did not inline). Closing (log-writes.ts)
// writes the header back, or packs the log into the row again once it is down to one entry and
// frees its block.
// INVARIANT: times ascend strictly (same-ms charges merge); after an event, no entry read by it has
// left, and none is later than the row's time.

import { effectiveTime } from './effective-time.js';
import { BLOCK_CAP, BLOCK_HEAD, BLOCK_HEADER, BLOCK_SIZE, BLOCK_SUM, type LogArena } from './log-arena.js';
import { SLOT_WEIGHT_SPAN } from './log-slot.js';

/**
 * Where each number of an open log is in `open`: log rule `i` starts at `i * STRIDE`. BLOCK is its
 * block in the arena, or -1 while it lives in the row's number (0 or 1 entry, in STAMP and
 * WEIGHT); after the six logs, the row's time before the event, the event's time, the time
 * entries are dropped at, the stamp of the entry being added, and the clock's reading for the
 * event (CLOCK: set by whoever calls the kernel, read by it; see stepIntoAtClock).
 * @example
 * import { OPEN, open } from './open-logs.js';
 * open[2 * OPEN.STRIDE + OPEN.SUM]; // the CPU log's sum while it is open
 */
export const OPEN = {
  STRIDE: 8,
  BLOCK: 0,
  HEAD: 1,
  SIZE: 2,
  SUM: 3,
  CAP: 4,
  STAMP: 5,
  WEIGHT: 6,
  OLD_AT: 48,
  NOW: 49,
  DROP_AT: 50,
  NEW_STAMP: 51,
  CLOCK: 52,
} as const;
const { STRIDE, BLOCK, HEAD, SIZE, SUM, CAP, STAMP, WEIGHT, OLD_AT, NOW, DROP_AT, CLOCK } = OPEN;

/**
 * The open logs and the event's times (see OPEN). Safe to share: JavaScript runs one event at a
 * time, and the kernel never calls out between opening and closing.
 * @example
 * import { OPEN, open } from './open-logs.js';
 * open[OPEN.NOW]; // the time of the event being decided
 */
export const open = new Float64Array(OPEN.CLOCK + 1);

/**
 * Sets the times of the event about to open logs: the row's time `at` (packed ages count back
 * from it), the event's time `t`, and the time the logs are read at (`dropAt`, never before `t`:
 * the entries that left by then are dropped as each log opens).
 * @example
 * import { setLogTimes } from './open-logs.js';
 * setLogTimes(1_000, 2_000, 2_000);
 */
export function setLogTimes(at: number, t: number, dropAt: number): void {
  open[OLD_AT] = at;
  open[NOW] = t;
  open[DROP_AT] = dropAt;
}

/**
 * Sets the times of an event at the clock's reading `open[OPEN.CLOCK]` on the row whose time is
 * `row[atIndex]`, as setLogTimes does with `t = effectiveTime(now, at)` and the drop time the
 * later of `t` and `at`. The kernel reads `t` back from `open[OPEN.NOW]`: returned, the time would
 * be boxed into a new heap number whenever V8 does not inline the call, and the kernel's admit
 * spends its inlining budget on later calls (16 B, twice per request, in the sampling heap
 * profile); the reading, the row and the index come the same way (a double argument is boxed,
 * an index is not).
 * @example
 * import { OPEN, open, setEventTimes } from './open-logs.js';
 * open[OPEN.CLOCK] = 2_000;
 * setEventTimes(new Float64Array([1_000]), 0);
 * open[OPEN.NOW]; // 2000
 */
export function setEventTimes(row: Float64Array, atIndex: number): void {
  const at = row[atIndex]!;
  const t = effectiveTime(open[CLOCK]!, at);
  open[OLD_AT] = at;
  open[NOW] = t;
  // A clock that stepped back reads the logs at the row's time: see stepInto.
  open[DROP_AT] = Math.max(t, at);
}

/**
 * Opens log rule `i` held in `row[n]` (its number in the row), dropping the entries that left by
 * the drop time (see setLogTimes). Reads only: nothing is written until closeLog.
 * @example
 * import { LogArena } from './log-arena.js';
 * import { openLog, setLogTimes } from './open-logs.js';
 * const row = new Float64Array(16);
 * row[2] = 4_194_304_001; // one entry, 250 ms old, weight 1
 * setLogTimes(1_000, 1_000, 1_000);
 * openLog(new LogArena(), 0, row, 2, 60_000);
 */
export function openLog(arena: LogArena, i: number, row: Float64Array, n: number, spanMs: number): void {
  const slot = row[n]!;
  const v = i * STRIDE;
  const edge = open[DROP_AT]! - spanMs;
  if (!(slot < -1)) {
    open[v + BLOCK] = -1;
    open[v + HEAD] = 0;
    if (slot > 0) {
      // A division and a floor, not `%`: V8 computes a double's remainder with a slow x87 loop.
      const age = Math.floor(slot / SLOT_WEIGHT_SPAN);
      const weight = slot - age * SLOT_WEIGHT_SPAN;
      const stamp = open[OLD_AT]! - age;
      const live = stamp > edge;
      open[v + SIZE] = live ? 1 : 0;
      open[v + SUM] = live ? weight : 0;
      open[v + STAMP] = stamp;
      open[v + WEIGHT] = weight;
    } else {
      open[v + SIZE] = 0;
      open[v + SUM] = 0;
    }
    return;
  }
  const block = -slot - 2;
  const buf = arena.buf;
  const cap = buf[block + BLOCK_CAP]!;
  let head = buf[block + BLOCK_HEAD]!;
  let size = buf[block + BLOCK_SIZE]!;
  let sum = buf[block + BLOCK_SUM]!;
  while (size > 0 && buf[block + BLOCK_HEADER + 2 * head]! <= edge) {
    sum -= buf[block + BLOCK_HEADER + 2 * head + 1]!;
    head = (head + 1) & (cap - 1);
    size--;
  }
  open[v + BLOCK] = block;
  open[v + HEAD] = size === 0 ? 0 : head;
  open[v + SIZE] = size;
  open[v + SUM] = size === 0 ? 0 : sum;
  open[v + CAP] = cap;
}

/**
 * Where entry `j` (0: the oldest) of the open log whose numbers start at `v` (a block log) is in
 * the arena: its time, then its weight.
 * @example
 * import { entryAt, OPEN } from './open-logs.js';
 * entryAt(2 * OPEN.STRIDE, 0); // the oldest entry of the CPU log
 */
export function entryAt(v: number, j: number): number {
  return open[v + BLOCK]! + BLOCK_HEADER + 2 * ((open[v + HEAD]! + j) & (open[v + CAP]! - 1));
}

/**
 * Milliseconds after the event's time until `need` more fits under `capacity` in open log `i`
 * (0: it fits now): until enough of the oldest entries have left, each at its stamp + `spanMs`. A
 * need above the capacity never fits; its wait is one span from the newest entry (or one span).
 * @example
 * import { LogArena } from './log-arena.js';
 * import { logWait, openLog, setLogTimes } from './open-logs.js';
 * const arena = new LogArena();
 * setLogTimes(1_000, 30_000, 30_000);
 * const row = new Float64Array(16);
 * row[2] = 900; // 900 points at 1 s, packed
 * openLog(arena, 0, row, 2, 60_000);
 * logWait(arena, 0, 60_000, 1, 900); // 31000 (they leave at 61 s)
 */
export function logWait(arena: LogArena, i: number, spanMs: number, need: number, capacity: number): number {
  const v = i * STRIDE;
  let sum = open[v + SUM]!;
  if (sum + need <= capacity) return 0;
  const t = open[NOW]!;
  const edge = t - spanMs;
  const size = open[v + SIZE]!;
  if (open[v + BLOCK]! < 0) {
    // One entry at most, in the row.
    const stamp = open[v + STAMP]!;
    if (size === 1 && stamp > edge) {
      sum -= open[v + WEIGHT]!;
      if (sum + need <= capacity) return Math.max(1, stamp + spanMs - t);
    }
    return size === 1 && stamp > edge ? Math.max(1, stamp + spanMs - t) : spanMs;
  }
  const buf = arena.buf;
  for (let j = 0; j < size; j++) {
    const at = entryAt(v, j);
    if (buf[at]! <= edge) continue;
    sum -= buf[at + 1]!;
    if (sum + need <= capacity) return Math.max(1, buf[at]! + spanMs - t);
  }
  const newest = size > 0 ? buf[entryAt(v, size - 1)]! : edge;
  return newest > edge ? Math.max(1, newest + spanMs - t) : spanMs;
}

/** Charging, restamping and closing the open logs: the writes of an event that changes the state. */
// Hot path: every log an admitted event charges or writes back; bench/limits.mjs guards its speed.
// The logs are opened, and read, by open-logs.ts; see it for where a log lives.
import { BLOCK_HEAD, BLOCK_HEADER, BLOCK_SIZE, BLOCK_SUM, FIRST_CAP, type LogArena } from './log-arena.js';
import { SLOT_MAX_AGE, SLOT_WEIGHT_SPAN } from './log-slot.js';
import { entryAt, OPEN, open, openLog } from './open-logs.js';

const { STRIDE, BLOCK, HEAD, SIZE, SUM, CAP, STAMP, WEIGHT, OLD_AT, NOW, DROP_AT, NEW_STAMP } = OPEN;

/** The kernel found the open block log at `v` full: a block twice the size, the entries moved to its start in order. */
function grow(arena: LogArena, v: number): void {
  const cap = open[v + CAP]!;
  const size = open[v + SIZE]!;
  const from = open[v + BLOCK]!;
  const block = arena.allocate(2 * cap);
  const buf = arena.buf;
  for (let j = 0; j < size; j++) {
    const at = entryAt(v, j);
    buf[block + BLOCK_HEADER + 2 * j] = buf[at]!;
    buf[block + BLOCK_HEADER + 2 * j + 1] = buf[at + 1]!;
  }
  arena.release(from);
  open[v + BLOCK] = block;
  open[v + HEAD] = 0;
  open[v + CAP] = 2 * cap;
}

/** Moves the open log at `v`, kept in the row, to a new block of the arena (it gets a second entry). */
function toBlock(arena: LogArena, v: number): void {
  const block = arena.allocate(FIRST_CAP);
  const size = open[v + SIZE]!;
  if (size === 1) {
    const buf = arena.buf;
    buf[block + BLOCK_HEADER] = open[v + STAMP]!;
    buf[block + BLOCK_HEADER + 1] = open[v + WEIGHT]!;
  }
  open[v + BLOCK] = block;
  open[v + HEAD] = 0;
  open[v + CAP] = FIRST_CAP;
}

/** Appends an entry stamped `open[NEW_STAMP]` (the newest) to the open log at `v`; the caller keeps SUM. */
function push(arena: LogArena, v: number, weight: number): void {
  if (open[v + BLOCK]! < 0) {
    if (open[v + SIZE] === 0) {
      open[v + STAMP] = open[NEW_STAMP]!;
      open[v + WEIGHT] = weight;
      open[v + SIZE] = 1;
      return;
    }
    toBlock(arena, v);
  }
  if (open[v + SIZE] === open[v + CAP]) grow(arena, v);
  const at = entryAt(v, open[v + SIZE]!);
  const buf = arena.buf;
  buf[at] = open[NEW_STAMP]!;
  buf[at + 1] = weight;
  open[v + SIZE]!++;
}

/**
 * How the newest entry's stamp compares with `open[NEW_STAMP]` (the log holds one at least): 1
 * later, 0 the same, -1 earlier. A sign, not the stamp: a double returned by a function V8 did not
 * inline is boxed.
 */
function newestVersus(arena: LogArena, v: number): number {
  const newest = open[v + BLOCK]! < 0 ? open[v + STAMP]! : arena.buf[entryAt(v, open[v + SIZE]! - 1)]!;
  const stamp = open[NEW_STAMP]!;
  return newest > stamp ? 1 : newest === stamp ? 0 : -1;
}

/** Adds `weight` to the newest entry (the log holds one at least). */
function addToNewest(arena: LogArena, v: number, weight: number): void {
  if (open[v + BLOCK]! < 0) open[v + WEIGHT]! += weight;
  else arena.buf[entryAt(v, open[v + SIZE]! - 1) + 1]! += weight;
}

/**
 * Adds `weight` to open log `i` at the event's time, stamped at the start of its `quantumMs` (1
 * for an exact log): merged into the newest entry when that has the same stamp.
 * @example
 * import { LogArena } from './log-arena.js';
 * import { chargeLog } from './log-writes.js';
 * import { openLog, setLogTimes } from './open-logs.js';
 * const arena = new LogArena();
 * setLogTimes(0, 1_500, 1_500);
 * openLog(arena, 2, new Float64Array(16), 4, 61_000); // the empty CPU log
 * chargeLog(arena, 2, 30, 1000); // one entry of 30, stamped 1,000
 */
export function chargeLog(arena: LogArena, i: number, weight: number, quantumMs: number): void {
  if (!(weight > 0)) return;
  const v = i * STRIDE;
  const t = open[NOW]!;
  // Whole ms below 2^53: the floor of the quotient is exact (no `%`: see openLog).
  open[NEW_STAMP] = quantumMs === 1 ? t : Math.floor(t / quantumMs) * quantumMs;
  open[v + SUM]! += weight;
  if (open[v + SIZE]! > 0 && newestVersus(arena, v) >= 0) addToNewest(arena, v, weight);
  else push(arena, v, weight);
}

/**
 * After a clock stepped back to the event's time (behind the row's), restamps at it every entry of
 * open log `i` stamped after it: they count one span from now, never longer, never less.
 * @example
 * import { LogArena } from './log-arena.js';
 * import { restampLog } from './log-writes.js';
 * import { openLog, setLogTimes } from './open-logs.js';
 * const arena = new LogArena();
 * setLogTimes(5_000, 2_000, 5_000);
 * const row = new Float64Array(16);
 * row[2] = 1; // one entry at 5,000
 * openLog(arena, 0, row, 2, 60_000);
 * restampLog(arena, 0); // now at 2,000
 */
export function restampLog(arena: LogArena, i: number): void {
  const v = i * STRIDE;
  open[NEW_STAMP] = open[NOW]!;
  if (open[v + SIZE] === 0 || newestVersus(arena, v) <= 0) return;
  let moved = 0;
  while (open[v + SIZE]! > 0 && newestVersus(arena, v) > 0) {
    moved += open[v + BLOCK]! < 0 ? open[v + WEIGHT]! : arena.buf[entryAt(v, open[v + SIZE]! - 1) + 1]!;
    open[v + SIZE]!--;
  }
  if (open[v + SIZE]! > 0 && newestVersus(arena, v) === 0) addToNewest(arena, v, moved);
  else push(arena, v, moved);
}

/**
 * Writes into `row[n]` the entry `from[k]` (stamp), `from[k + 1]` (weight) packed at the event's
 * time (the row's new time), and answers true; false, writing nothing, when it does not pack (too
 * heavy, too old, later than the row). Arrays and indexes in, a boolean out: no double crosses.
 */
function packInto(row: Float64Array, n: number, from: Float64Array, k: number): boolean {
  const age = open[NOW]! - from[k]!;
  const weight = from[k + 1]!;
  if (!(age >= 0 && age < SLOT_MAX_AGE && weight < SLOT_WEIGHT_SPAN)) return false;
  row[n] = age * SLOT_WEIGHT_SPAN + weight;
  return true;
}

/**
 * Closes open log `i` into `row[n]`, the row's number for it, at the event's time (the row's new
 * time): 0, a packed entry, or its block (-(block + 2)). A log back to one entry leaves its block.
 * @example
 * import { LogArena } from './log-arena.js';
 * import { chargeLog, closeLog } from './log-writes.js';
 * import { openLog, setLogTimes } from './open-logs.js';
 * const arena = new LogArena();
 * const row = new Float64Array(16);
 * setLogTimes(0, 750, 750);
 * openLog(arena, 0, row, 2, 60_000);
 * chargeLog(arena, 0, 1, 1);
 * closeLog(arena, 0, row, 2); // row[2] === 1 (one entry of 1, stamped now)
 */
export function closeLog(arena: LogArena, i: number, row: Float64Array, n: number): void {
  const v = i * STRIDE;
  const size = open[v + SIZE]!;
  if (open[v + BLOCK]! < 0) {
    if (size === 0) {
      row[n] = 0;
      return;
    }
    if (packInto(row, n, open, v + STAMP)) return;
    toBlock(arena, v);
  }
  const block = open[v + BLOCK]!;
  const buf = arena.buf;
  if (size === 0) {
    arena.release(block);
    row[n] = 0;
    return;
  }
  if (size === 1 && packInto(row, n, buf, entryAt(v, 0))) {
    arena.release(block);
    return;
  }
  buf[block + BLOCK_HEAD] = open[v + HEAD]!;
  buf[block + BLOCK_SIZE] = size;
  buf[block + BLOCK_SUM] = open[v + SUM]!;
  row[n] = -block - 2;
}

/**
 * Ages `row[n]`, the number of log rule `i` the event did not open, as the row's time moves from
 * the old time to the event's (see setLogTimes): a packed entry ages (0 once it has left), a block
 * stays as it is. An entry still counted but too old to pack (a span of days) moves to a block.
 * @example
 * import { LogArena } from './log-arena.js';
 * import { ageLog } from './log-writes.js';
 * import { setLogTimes } from './open-logs.js';
 * const row = new Float64Array(16);
 * row[2] = 4_194_304_001;
 * setLogTimes(1_000, 61_000, 61_000);
 * ageLog(new LogArena(), 0, row, 2, 60_000); // row[2] === 0 (the entry at 750 left)
 */
export function ageLog(arena: LogArena, i: number, row: Float64Array, n: number, spanMs: number): void {
  const slot = row[n]!;
  if (!(slot > 0)) return;
  const by = open[NOW]! - open[OLD_AT]!;
  if (by === 0) return;
  // The entry's age grows by `by`: its packed number by `by` x 2^24 (no `%`: see openLog).
  const age = Math.floor(slot / SLOT_WEIGHT_SPAN) + by;
  if (age >= spanMs) row[n] = 0;
  else if (age < SLOT_MAX_AGE) row[n] = slot + by * SLOT_WEIGHT_SPAN;
  else {
    const drop = open[DROP_AT]!;
    open[DROP_AT] = Number.NEGATIVE_INFINITY;
    openLog(arena, i, row, n, spanMs);
    open[DROP_AT] = drop;
    closeLog(arena, i, row, n);
  }
}

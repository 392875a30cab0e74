/** One buffer for every sliding log the memory store keeps apart from its rows: rings in blocks, no object per log. */
// Hot path: a block is read and written for each log an event touches; bench/limits.mjs guards its speed.
import type { SlidingLog } from '../limits/sliding-log.js';

/**
 * A block's header before its ring: head slot, size, sum of weights, capacity in entries. The
 * ring follows, two numbers per entry (time, weight): one block is the whole log, so touching a
 * log reads its header and the ring's two ends, and the garbage collector sees nothing per log.
 */
const HEAD = 0;
const SIZE = 1;
const SUM = 2;
const CAP = 3;
const HEADER = 4;
/** The smallest ring, in entries; each larger class doubles it. */
const FIRST_CAP = 8;

/** A log loaded from a block: the SlidingLog the kernel reads, and the block it lives in. */
export interface ArenaLog extends SlidingLog {
  /** Start of the block (its header) in the arena. */
  block: number;
}

/**
 * The arena: blocks of power-of-two rings, free lists by size, one Float64Array that doubles
 * when full (every view it handed out is pointed at the new buffer).
 */
export interface LogArena {
  /** A view on nothing yet, to `open` blocks into. Views follow the arena when it grows. */
  view(): ArenaLog;
  /** Points `view` at the log in `block`. */
  open(view: ArenaLog, block: number): void;
  /** Writes `view`'s head, size and sum back into its block. */
  close(view: ArenaLog): void;
  /** A new block holding `log`'s entries (any SlidingLog); returns the block. */
  copy(log: SlidingLog): number;
  /** The time of the newest entry of the log in `block` (-Infinity when empty). */
  newest(block: number): number;
  free(block: number): void;
  clear(): void;
}

function capClass(cap: number): number {
  return Math.log2(cap / FIRST_CAP);
}

/**
 * A LogArena.
 * @example
 * import { chargeLog, createSlidingLog } from '../limits/sliding-log.js';
 * import { createLogArena } from './log-arena.js';
 * const arena = createLogArena();
 * const log = createSlidingLog();
 * chargeLog(log, 7, 2, 1);
 * arena.newest(arena.copy(log)); // 7
 */
export function createLogArena(): LogArena {
  let buf = new Float64Array(1024);
  let top = 0;
  let freeLists: number[][] = [];
  const views: ArenaLog[] = [];

  const allocate = (cap: number): number => {
    const reused = freeLists[capClass(cap)]?.pop();
    const block = reused ?? top;
    if (reused === undefined) {
      top += HEADER + 2 * cap;
      if (top > buf.length) {
        let length = buf.length * 2;
        while (length < top) length *= 2;
        const grown = new Float64Array(length);
        grown.set(buf);
        buf = grown;
        for (const view of views) view.buf = grown;
      }
    }
    buf[block + CAP] = cap;
    return block;
  };
  const release = (block: number): void => {
    const k = capClass(buf[block + CAP]!);
    const list = freeLists[k];
    if (list === undefined) freeLists[k] = [block];
    else list.push(block);
  };
  // The kernel found the ring full: a block twice the size, the entries moved to its start in order.
  const grow = (log: SlidingLog): void => {
    const view = log as ArenaLog;
    const cap = view.cap * 2;
    const block = allocate(cap);
    const from = view.buf;
    const to = buf;
    for (let j = 0; j < view.size; j++) {
      const at = view.base + 2 * ((view.head + j) & (view.cap - 1));
      to[block + HEADER + 2 * j] = from[at]!;
      to[block + HEADER + 2 * j + 1] = from[at + 1]!;
    }
    release(view.block);
    view.buf = to;
    view.block = block;
    view.base = block + HEADER;
    view.cap = cap;
    view.head = 0;
  };

  return {
    view() {
      const view: ArenaLog = { buf, base: 0, cap: 1, head: 0, size: 0, sum: 0, grow, block: 0 };
      views.push(view);
      return view;
    },
    open(view, block) {
      view.block = block;
      view.base = block + HEADER;
      view.head = buf[block + HEAD]!;
      view.size = buf[block + SIZE]!;
      view.sum = buf[block + SUM]!;
      view.cap = buf[block + CAP]!;
    },
    close(view) {
      buf[view.block + HEAD] = view.head;
      buf[view.block + SIZE] = view.size;
      buf[view.block + SUM] = view.sum;
    },
    copy(log) {
      let cap = FIRST_CAP;
      while (cap < log.size + 1) cap *= 2;
      const block = allocate(cap);
      for (let j = 0; j < log.size; j++) {
        const at = log.base + 2 * ((log.head + j) & (log.cap - 1));
        buf[block + HEADER + 2 * j] = log.buf[at]!;
        buf[block + HEADER + 2 * j + 1] = log.buf[at + 1]!;
      }
      buf[block + HEAD] = 0;
      buf[block + SIZE] = log.size;
      buf[block + SUM] = log.sum;
      return block;
    },
    newest(block) {
      const size = buf[block + SIZE]!;
      if (size === 0) return Number.NEGATIVE_INFINITY;
      const cap = buf[block + CAP]!;
      return buf[block + HEADER + 2 * ((buf[block + HEAD]! + size - 1) & (cap - 1))]!;
    },
    free: release,
    clear() {
      buf = new Float64Array(1024);
      top = 0;
      freeLists = [];
      for (const view of views) view.buf = buf;
    },
  };
}

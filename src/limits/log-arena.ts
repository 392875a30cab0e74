/** One buffer for the sliding logs kept apart from their rows: rings in blocks, no object per log. */
// Hot path: the kernel reads and writes a block for each longer log an event touches;
// bench/limits.mjs guards its speed.

/**
 * A block's header before its ring: head slot, size, sum of weights, capacity in entries. The
 * ring follows, two numbers per entry (time, weight): one block is the whole log, so touching a
 * log reads its header and the ring's two ends, and the garbage collector sees nothing per log.
 */
export const BLOCK_HEAD = 0;
/** See BLOCK_HEAD: the entries held. */
export const BLOCK_SIZE = 1;
/** See BLOCK_HEAD: the sum of the entries' weights. */
export const BLOCK_SUM = 2;
/** See BLOCK_HEAD: the ring's capacity in entries (a power of two). */
export const BLOCK_CAP = 3;
/** See BLOCK_HEAD: the header's length; entry `k` of the ring is at `block + BLOCK_HEADER + 2k`. */
export const BLOCK_HEADER = 4;
/** The smallest ring, in entries; each larger class doubles it. */
export const FIRST_CAP = 8;

/**
 * The arena: blocks of power-of-two rings, free lists by size, one Float64Array that doubles when
 * full. `buf` is replaced when it grows: read it again after `allocate`.
 * @example
 * import { BLOCK_CAP, LogArena } from './log-arena.js';
 * const arena = new LogArena();
 * const block = arena.allocate(8);
 * arena.buf[block + BLOCK_CAP]; // 8
 * arena.release(block);
 */
export class LogArena {
  buf = new Float64Array(1024);
  #top = 0;
  #freeLists: number[][] = [];

  /** A block with an empty ring of `cap` entries (a power of two, at least FIRST_CAP). */
  allocate(cap: number): number {
    const reused = this.#freeLists[Math.log2(cap / FIRST_CAP)]?.pop();
    let block = reused ?? this.#top;
    if (reused === undefined) {
      this.#top += BLOCK_HEADER + 2 * cap;
      if (this.#top > this.buf.length) {
        let length = this.buf.length * 2;
        while (length < this.#top) length *= 2;
        const grown = new Float64Array(length);
        grown.set(this.buf);
        this.buf = grown;
      }
    }
    block = block | 0;
    const buf = this.buf;
    buf[block + BLOCK_HEAD] = 0;
    buf[block + BLOCK_SIZE] = 0;
    buf[block + BLOCK_SUM] = 0;
    buf[block + BLOCK_CAP] = cap;
    return block;
  }

  /** Gives `block` back for reuse. */
  release(block: number): void {
    const k = Math.log2(this.buf[block + BLOCK_CAP]! / FIRST_CAP);
    const list = this.#freeLists[k];
    if (list === undefined) this.#freeLists[k] = [block];
    else list.push(block);
  }

  /** The time of the newest entry of the log in `block` (-Infinity when empty). */
  newest(block: number): number {
    const buf = this.buf;
    const size = buf[block + BLOCK_SIZE]!;
    if (size === 0) return Number.NEGATIVE_INFINITY;
    const cap = buf[block + BLOCK_CAP]!;
    return buf[block + BLOCK_HEADER + 2 * ((buf[block + BLOCK_HEAD]! + size - 1) & (cap - 1))]!;
  }

  /** Every block freed: the next allocation starts at the beginning of a buffer of the first size. */
  clear(): void {
    if (this.buf.length > 1024) this.buf = new Float64Array(1024);
    this.#top = 0;
    this.#freeLists = [];
  }
}

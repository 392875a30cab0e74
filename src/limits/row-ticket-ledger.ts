/** The memory store's ticket ledger: by row, the first ticket of each row in typed arrays. Pure (time is an argument). */
// Hot path: a hold per admission and a claim per completion; bench/limits.mjs guards its speed.

/**
 * The same ledger as TicketLedger, by row number, for a store that gives each identity a row. The
 * time of a call is not an argument: the caller writes it into `time[0]` first (the event's time
 * for `live` and `claim`, the lease's end for `hold`). An epoch-ms double passed to a function V8
 * does not inline is boxed into a 16-byte heap number, once per admission and per completion.
 */
export interface RowTicketLedger {
  /** The time of the next call (see above). */
  readonly time: Float64Array;
  nextId(): number;
  /** Tickets of `row` whose lease runs past `time[0]`. */
  live(row: number): number;
  /** Holds ticket `id` for `row`, its lease ending at `time[0]`. */
  hold(row: number, id: number): void;
  /** Settles ticket `id` of `row` at `time[0]`: true when it was held with its lease running. */
  claim(row: number, id: number): boolean;
  forget(row: number): void;
  clear(): void;
}

/**
 * A TicketLedger indexed by the store's row of each identity (the memory store's). Most rows hold
 * one ticket at a time: its id and lease end sit side by side in one typed array (id 0: none),
 * so holding and claiming it allocates nothing and touches one cache line; the tickets beyond the
 * first go to a flat `[id, leaseEnd, ...]` list of the row, made only when a row has two requests
 * in flight. The first id is stored negated while the row's list is not empty: the common row
 * (one ticket or none) never reads the list's counts.
 * Worked example: row 7 holds ticket 12, then ticket 13: first[14] is -12, its list [13, lease].
 * @example
 * import { createRowTicketLedger } from './row-ticket-ledger.js';
 * const ledger = createRowTicketLedger();
 * const id = ledger.nextId();
 * ledger.time[0] = 600_000; // the lease's end
 * ledger.hold(7, id);
 * ledger.time[0] = 1_000; // now
 * ledger.live(7); // 1
 * ledger.claim(7, id); // true
 */
export function createRowTicketLedger(): RowTicketLedger {
  const time = new Float64Array(1);
  /** Per row, side by side: the first ticket's id (0: none; negated while the list holds some) and lease end. */
  let first = new Float64Array(2048);
  /** Per row, how many tickets its list holds. */
  let extra = new Uint32Array(1024);
  let more: (number[] | undefined)[] = [];
  let lastId = 0;

  const ensure = (row: number): void => {
    if (row < extra.length) return;
    let length = extra.length * 2;
    while (length <= row) length *= 2;
    const pairs = new Float64Array(2 * length);
    pairs.set(first);
    first = pairs;
    const counts = new Uint32Array(length);
    counts.set(extra);
    extra = counts;
  };
  /** The row's list changed size: the first id's sign says whether it holds any. */
  const mark = (row: number): void => {
    const id = Math.abs(first[2 * row]!);
    first[2 * row] = extra[row] === 0 ? id : -id;
  };
  /** Removes entry `at` of the row's list (the last entry moves there). */
  const removeAt = (row: number, list: number[], at: number): void => {
    list[at] = list[list.length - 2]!;
    list[at + 1] = list[list.length - 1]!;
    list.length -= 2;
    extra[row] = list.length / 2;
    if (list.length === 0) more[row] = undefined;
  };
  /** The row's first place is free: the last ticket of its list (if any) moves there. */
  const promote = (row: number): void => {
    if (first[2 * row]! > 0) {
      first[2 * row] = 0;
      return;
    }
    const list = more[row]!;
    first[2 * row + 1] = list[list.length - 1]!;
    first[2 * row] = list[list.length - 2]!;
    removeAt(row, list, list.length - 2);
    mark(row);
  };
  return {
    time,
    nextId: () => ++lastId,
    live(row) {
      const t = time[0]!;
      if (row >= extra.length || first[2 * row] === 0) return 0;
      if (first[2 * row]! < 0) {
        const list = more[row]!;
        for (let at = list.length - 2; at >= 0; at -= 2) if (list[at + 1]! <= t) removeAt(row, list, at);
        mark(row);
      }
      // The list holds only running leases now: one of them takes the first place if it ended.
      if (first[2 * row + 1]! <= t) promote(row);
      return first[2 * row] === 0 ? 0 : 1 + extra[row]!;
    },
    hold(row, id) {
      const leaseEnd = time[0]!;
      ensure(row);
      if (first[2 * row] === 0) {
        first[2 * row] = id;
        first[2 * row + 1] = leaseEnd;
        return;
      }
      const list = more[row];
      if (list === undefined) more[row] = [id, leaseEnd];
      else list.push(id, leaseEnd);
      extra[row]!++;
      mark(row);
    },
    claim(row, id) {
      const t = time[0]!;
      if (row >= extra.length) return false;
      const held = first[2 * row]!;
      if (held === 0) return false;
      if (held === id || held === -id) {
        const running = first[2 * row + 1]! > t;
        promote(row);
        return running;
      }
      if (held > 0) return false;
      const list = more[row]!;
      for (let at = 0; at < list.length; at += 2) {
        if (list[at] !== id) continue;
        const running = list[at + 1]! > t;
        removeAt(row, list, at);
        mark(row);
        return running;
      }
      return false;
    },
    forget(row) {
      if (row >= extra.length) return;
      first[2 * row] = 0;
      extra[row] = 0;
      more[row] = undefined;
    },
    clear() {
      first = new Float64Array(2048);
      extra = new Uint32Array(1024);
      more = [];
    },
  };
}

/** The memory store's ticket ledger: by row, the first ticket of each row in typed arrays. Pure (time is an argument). */
// Hot path: a hold per admission and a claim per completion; bench/limits.mjs guards its speed.

/** The same ledger as TicketLedger, by row number, for a store that gives each identity a row. */
export interface RowTicketLedger {
  nextId(): number;
  live(row: number, t: number): number;
  hold(row: number, id: number, leaseEnd: number): void;
  claim(row: number, id: number, t: number): boolean;
  forget(row: number): void;
  clear(): void;
}

/**
 * A TicketLedger indexed by the store's row of each identity (the memory store's). Most rows hold
 * one ticket at a time: its id and lease end sit in two typed arrays (id 0: none), so holding and
 * claiming it allocates nothing; the tickets beyond the first go to a flat `[id, leaseEnd, ...]`
 * list of the row, made only when a row has two requests in flight.
 * @example
 * import { createRowTicketLedger } from './row-ticket-ledger.js';
 * const ledger = createRowTicketLedger();
 * const id = ledger.nextId();
 * ledger.hold(7, id, 600_000);
 * ledger.live(7, 1_000); // 1
 * ledger.claim(7, id, 1_000); // true
 */
export function createRowTicketLedger(): RowTicketLedger {
  let firstId = new Float64Array(1024);
  let firstLease = new Float64Array(1024);
  let more: (number[] | undefined)[] = [];
  let lastId = 0;

  const ensure = (row: number): void => {
    if (row < firstId.length) return;
    let length = firstId.length * 2;
    while (length <= row) length *= 2;
    const ids = new Float64Array(length);
    ids.set(firstId);
    firstId = ids;
    const leases = new Float64Array(length);
    leases.set(firstLease);
    firstLease = leases;
  };
  /** The row's first place is free: the last ticket of its list (if any) moves there. */
  const promote = (row: number): void => {
    const list = more[row];
    if (list === undefined || list.length === 0) {
      firstId[row] = 0;
      return;
    }
    firstLease[row] = list.pop()!;
    firstId[row] = list.pop()!;
    if (list.length === 0) more[row] = undefined;
  };
  return {
    nextId: () => ++lastId,
    live(row, t) {
      if (row >= firstId.length || firstId[row] === 0) return 0;
      const list = more[row];
      if (list !== undefined) {
        for (let at = list.length - 2; at >= 0; at -= 2) {
          if (list[at + 1]! > t) continue;
          list[at] = list[list.length - 2]!;
          list[at + 1] = list[list.length - 1]!;
          list.length -= 2;
        }
        if (list.length === 0) more[row] = undefined;
      }
      // The list holds only running leases now: one of them takes the first place if it ended.
      if (firstLease[row]! <= t) promote(row);
      if (firstId[row] === 0) return 0;
      const rest = more[row];
      return rest === undefined ? 1 : 1 + rest.length / 2;
    },
    hold(row, id, leaseEnd) {
      ensure(row);
      if (firstId[row] === 0) {
        firstId[row] = id;
        firstLease[row] = leaseEnd;
        return;
      }
      const list = more[row];
      if (list === undefined) more[row] = [id, leaseEnd];
      else list.push(id, leaseEnd);
    },
    claim(row, id, t) {
      if (row >= firstId.length || firstId[row] === 0) return false;
      if (firstId[row] === id) {
        const running = firstLease[row]! > t;
        promote(row);
        return running;
      }
      const list = more[row];
      if (list === undefined) return false;
      for (let at = 0; at < list.length; at += 2) {
        if (list[at] !== id) continue;
        const running = list[at + 1]! > t;
        list[at] = list[list.length - 2]!;
        list[at + 1] = list[list.length - 1]!;
        list.length -= 2;
        if (list.length === 0) more[row] = undefined;
        return running;
      }
      return false;
    },
    forget(row) {
      if (row < firstId.length) firstId[row] = 0;
      more[row] = undefined;
    },
    clear() {
      firstId = new Float64Array(1024);
      firstLease = new Float64Array(1024);
      more = [];
    },
  };
}

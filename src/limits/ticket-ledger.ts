/** The tickets a store holds: each admitted request's in-flight slot, with a lease. Pure (time is an argument). */

/**
 * A ticket is a handle, not a value: the store that admitted a request holds its slot until the
 * request is completed or released, or its lease runs out (a crashed server's requests). The
 * in-flight count of an identity is the number of slots held with a lease still running; a
 * ticket whose slot is not held (a copy settled already, a forgery, an expired lease) settles
 * nothing. The memory store keeps one ledger; a shared store (Redis) keeps the same facts in the
 * identity's one value (each held ticket's id and lease end).
 */
export interface TicketLedger {
  /** A ticket id never handed out before by this ledger. */
  nextId(): number;
  /** Drops `key`'s leases that ended by `t`; returns how many of its tickets are still held. */
  live(key: string, t: number): number;
  /** Holds ticket `id` of `key` until `leaseEnd`. */
  hold(key: string, id: number, leaseEnd: number): void;
  /** True when `key` held ticket `id` with its lease running at `t`; the ticket is held no more. */
  claim(key: string, id: number, t: number): boolean;
  /** Forgets every ticket of `key` (its state was dropped). */
  forget(key: string): void;
  clear(): void;
}

// A list of held tickets is flat, `[id, leaseEnd, id, leaseEnd, ...]`: most identities hold one or
// two at a time, and a small array costs far less to make than a Map.
function removeAt(tickets: number[], at: number): void {
  const last = tickets.length - 2;
  tickets[at] = tickets[last]!;
  tickets[at + 1] = tickets[last + 1]!;
  tickets.length = last;
}

/** Drops the leases that ended by `t`; returns how many tickets remain. */
function dropEnded(tickets: number[], t: number): number {
  for (let at = tickets.length - 2; at >= 0; at -= 2) if (tickets[at + 1]! <= t) removeAt(tickets, at);
  return tickets.length / 2;
}

/** Removes ticket `id`; true when it was held with its lease running at `t`. */
function take(tickets: number[], id: number, t: number): boolean {
  for (let at = 0; at < tickets.length; at += 2) {
    if (tickets[at] !== id) continue;
    const leaseEnd = tickets[at + 1]!;
    removeAt(tickets, at);
    return leaseEnd > t;
  }
  return false;
}

/**
 * A ledger in memory, by identity key: only identities with requests in flight have an entry.
 * @example
 * import { createTicketLedger } from 'tollgate/limits';
 * const ledger = createTicketLedger();
 * const id = ledger.nextId();
 * ledger.hold('user:octocat', id, 600_000);
 * ledger.claim('user:octocat', id, 1_000); // true
 * ledger.claim('user:octocat', id, 1_000); // false: settled once already
 */
export function createTicketLedger(): TicketLedger {
  const held = new Map<string, number[]>();
  let lastId = 0;
  return {
    nextId: () => ++lastId,
    live(key, t) {
      const tickets = held.get(key);
      if (tickets === undefined) return 0;
      const count = dropEnded(tickets, t);
      if (count === 0) held.delete(key);
      return count;
    },
    hold(key, id, leaseEnd) {
      const tickets = held.get(key);
      if (tickets === undefined) held.set(key, [id, leaseEnd]);
      else tickets.push(id, leaseEnd);
    },
    claim(key, id, t) {
      const tickets = held.get(key);
      if (tickets === undefined) return false;
      const running = take(tickets, id, t);
      if (tickets.length === 0) held.delete(key);
      return running;
    },
    forget: (key) => {
      held.delete(key);
    },
    clear: () => held.clear(),
  };
}

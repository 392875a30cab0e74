/** The tickets a store holds: each admitted request's in-flight slot, with a lease. Pure (time is an argument). */

/**
 * A ticket is a handle, not a value: the store that admitted a request holds its slot until the
 * request is completed or released, or its lease runs out (a crashed server's requests). The
 * in-flight count of an identity is the number of slots held with a lease still running; a
 * ticket whose slot is not held (a copy settled already, a forgery, an expired lease) settles
 * nothing. The memory store keeps one ledger; a shared store (Redis) keeps the same facts in a
 * sorted set per identity.
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

/**
 * A ledger in memory: only identities with requests in flight have an entry.
 * @example
 * import { createTicketLedger } from 'tollgate/limits';
 * const ledger = createTicketLedger();
 * const id = ledger.nextId();
 * ledger.hold('user:octocat', id, 600_000);
 * ledger.claim('user:octocat', id, 1_000); // true
 * ledger.claim('user:octocat', id, 1_000); // false: settled once already
 */
export function createTicketLedger(): TicketLedger {
  const held = new Map<string, Map<number, number>>();
  let lastId = 0;
  return {
    nextId: () => ++lastId,
    live(key, t) {
      const tickets = held.get(key);
      if (tickets === undefined) return 0;
      for (const [id, leaseEnd] of tickets) if (leaseEnd <= t) tickets.delete(id);
      if (tickets.size === 0) held.delete(key);
      return tickets.size;
    },
    hold(key, id, leaseEnd) {
      let tickets = held.get(key);
      if (tickets === undefined) {
        tickets = new Map();
        held.set(key, tickets);
      }
      tickets.set(id, leaseEnd);
    },
    claim(key, id, t) {
      const tickets = held.get(key);
      const leaseEnd = tickets?.get(id);
      if (tickets === undefined || leaseEnd === undefined) return false;
      tickets.delete(id);
      if (tickets.size === 0) held.delete(key);
      return leaseEnd > t;
    },
    forget: (key) => {
      held.delete(key);
    },
    clear: () => held.clear(),
  };
}

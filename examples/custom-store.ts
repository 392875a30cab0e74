// A limits store of your own, from the pure core that `tollgate/limits` publishes: here the state in a
// Map, the shape to copy for a database of yours. It keeps the contract tollgate's own stores keep
// (test/stores/custom-store-example.test.ts runs the stores' contract against this file):
// - `apply` computes what `step` computes over the identity's stored state, and writes it back
//   before any other event of that identity is applied (atomically, in a shared database);
// - the tickets it hands out are held in a ledger with a lease: each event first sets `inFlight` to
//   the tickets still held, and only a ticket it holds settles anything (a second `complete`, a
//   forgery or a ticket whose lease ended answers the current state and changes nothing);
// - state that has expired (`stateExpiresAt`) behaves as none, and can be dropped.
// Tickets here are data, as in the Redis store: a copy of a held ticket settles it (the memory
// store's tickets are handles: only the object it handed out does).
import {
  createTicketLedger,
  type IdentityState,
  type LimitEvent,
  type LimitsConfig,
  type StepResult,
  type SyncLimitsStore,
  stateExpiresAt,
  step,
  type Verdict,
} from 'tollgate/limits';

/** A synchronous store over a Map; an AsyncLimitsStore over a database has the same steps, awaited. */
export function createMapStore(): SyncLimitsStore & { readonly size: () => number } {
  const states = new Map<string, IdentityState>();
  const tickets = createTicketLedger();

  /** The identity's state as the next event must see it: none once expired, its slots as held now. */
  function current(key: string, now: number, config: LimitsConfig): IdentityState | undefined {
    const state = states.get(key);
    if (state === undefined) return undefined;
    if (stateExpiresAt(state, config) <= now) {
      states.delete(key);
      tickets.forget(key);
      return undefined;
    }
    return { ...state, inFlight: tickets.live(key, now) };
  }

  function written(key: string, result: StepResult): Verdict {
    states.set(key, result.state);
    return result.verdict;
  }

  return {
    sync: true,
    apply(event: LimitEvent, now: number, config: LimitsConfig): Verdict {
      const key = event.kind === 'admit' ? event.key : event.ticket.key;
      const state = current(key, now, config);
      if (event.kind === 'admit') {
        const id = tickets.nextId();
        const result = step(state, event, now, config, id);
        // The lease counts from the event's time (the state's, after step), as the stores' do.
        if (result.verdict.ticket !== null)
          tickets.hold(key, id, result.state.at + config.secondary.concurrency.leaseMs);
        return written(key, result);
      }
      // A ticket this store does not hold: the identity's current state, nothing changed.
      if (!tickets.claim(key, event.ticket.id, now))
        return step(state, { kind: 'release', ticket: event.ticket, cpuMs: 0 }, now, config).verdict;
      return written(key, step(state, event, now, config));
    },
    read: (key) => states.get(key),
    reset(key) {
      states.delete(key);
      tickets.forget(key);
    },
    size: () => states.size,
  };
}

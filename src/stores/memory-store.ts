/** The embedded store: every identity's state in one Float64Array, bounded in size. */
// Hot path: one apply per admission and per completion; bench/limits.mjs guards its speed.
import { checkOptions } from '../core/check-options.js';
import { TollgateError } from '../core/errors.js';
import { withApplierAtClock } from '../limits/clocked-store.js';
import { defaultLimits } from '../limits/default-limits.js';
import { IDENTITY_STATE_FIELDS, type IdentityState } from '../limits/identity-state.js';
import { AdmissionTicket, eventKey, type LimitEvent, TicketIssuer } from '../limits/limit-event.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import { LogArena } from '../limits/log-arena.js';
import { logPlan } from '../limits/log-rules.js';
import { OPEN, open, setEventTimes } from '../limits/open-logs.js';
import { freeRowLogs, rowLogs, rowLogsExpireAt } from '../limits/row-logs.js';
import { createRowTicketLedger } from '../limits/row-ticket-ledger.js';
import { rowExpiresAt } from '../limits/state-expiry.js';
import { ROW_LOGS, SLOT, STATE_WIDTH, unpackState } from '../limits/state-layout.js';
import { unheldVerdict } from '../limits/step-finish.js';
import { stepIntoAtClock } from '../limits/step-into.js';
import type { Verdict } from '../limits/verdict.js';
import type { MemoryStore, MemoryStoreOptions } from './memory-store-types.js';
import { MEMORY_STORE_OPTIONS } from './store-options-spec.js';

export type { MemoryStore, MemoryStoreOptions } from './memory-store-types.js';

/** IdentityState's number fields, in row order. */
const STATE_FIELDS = IDENTITY_STATE_FIELDS;
/** Every this many applies, the clock hand checks a few identities for expiry. */
const SWEEP_EVERY = 64;
const SWEEP_BATCH = 4;

/**
 * The in-process store. State lives in one Float64Array (16 numbers, 128 bytes per identity)
 * that `stepInto` updates in place, indexed by a Map from identity key to row. Bounded memory:
 * expired state (`stateExpiresAt`) is dropped as the store is used, and with `maxIdentities`
 * live identities held, one not used recently is dropped (CLOCK, an LRU approximation that costs
 * no reordering per request), which gives that caller fresh limits: size the store for your
 * callers and watch `evictions`. Synchronous, so the limiter answers without a promise.
 * @example
 * import { createLimiter, createMemoryStore } from 'tollgate';
 * const limiter = createLimiter({ store: createMemoryStore({ maxIdentities: 100_000 }) });
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  checkOptions(MEMORY_STORE_OPTIONS, options);
  const maxIdentities = options.maxIdentities ?? 1_000_000;
  if (!Number.isInteger(maxIdentities) || maxIdentities < 1) {
    throw new TollgateError(
      'TOLLGATE_INVALID_OPTION',
      `memory store: \`maxIdentities\` must be a positive integer, got \`${maxIdentities}\``,
    );
  }
  let capacity = Math.min(maxIdentities, 1024);
  let slab = new Float64Array(capacity * STATE_WIDTH);
  /** CLOCK reference bits: set when a row is used, cleared when the hand passes over it. */
  let used = new Uint8Array(capacity);
  /** The key of each row (undefined when free), for the hand to walk rows without touching the Map. */
  const keys: (string | undefined)[] = [];
  const rows = new Map<string, number>();
  const free: number[] = [];
  /** A new identity's row: the transition runs here, and the row is kept only when admitted. */
  const scratch = new Float64Array(STATE_WIDTH);
  /** The sliding logs longer than one entry (one entry is packed in the row's number for its rule). */
  const arena = new LogArena();
  /** The row's state: its numbers, the numbers of the rules counted in logs 0, the logs apart. */
  const stateOf = (row: number, config: LimitsConfig): IdentityState => {
    const offset = row * STATE_WIDTH;
    const plan = logPlan(config);
    const state: Record<string, unknown> = { ...unpackState(slab, offset) };
    for (let i = 0; i < 6; i++) if (plan.uses[i]) state[STATE_FIELDS[ROW_LOGS + i]!] = 0;
    return { ...(state as unknown as IdentityState), logs: rowLogs(slab, offset, arena, plan) };
  };
  /** The tickets each identity has in flight: only identities with requests in flight cost anything here. */
  const tickets = createRowTicketLedger();
  /**
   * This store's mark on the tickets it hands out (AdmissionTicket.stamp): a ticket is a handle, so
   * a copy, a JSON round trip, a ticket constructed by hand or another store's settles nothing here.
   */
  const issuer = new TicketIssuer();
  let nextRow = 0;
  let hand = 0;
  let calls = 0;
  let evictions = 0;
  /** The config of the last event: it says which numbers of a row are packed logs (see `read`). */
  let lastConfig: LimitsConfig | undefined;

  const expired = (row: number, now: number, config: LimitsConfig) => {
    const offset = row * STATE_WIDTH;
    // The row's own numbers first: while a window, bucket or lease runs, the row is live and its
    // logs (arena blocks a sweep would read cold, most of them live) are not read.
    if (rowExpiresAt(slab, offset, config) > now) return false;
    return rowLogsExpireAt(slab, offset, arena, logPlan(config)) <= now;
  };
  const drop = (row: number): void => {
    tickets.forget(row);
    freeRowLogs(slab, row * STATE_WIDTH, arena);
    rows.delete(keys[row]!);
    keys[row] = undefined;
    free.push(row);
  };
  /** The next occupied row under the clock hand. */
  const advance = (): number => {
    for (;;) {
      hand = hand + 1 >= nextRow ? 0 : hand + 1;
      if (keys[hand] !== undefined) return hand;
    }
  };
  /** Frees one row: the first under the hand that is expired or not used since the hand last passed. */
  const evictOne = (now: number, config: LimitsConfig): void => {
    for (;;) {
      const row = advance();
      const gone = expired(row, now, config);
      if (used[row] === 1 && !gone) {
        used[row] = 0;
        continue;
      }
      if (!gone) evictions++;
      drop(row);
      return;
    }
  };
  const sweepSome = (now: number, config: LimitsConfig): void => {
    for (let i = 0; i < SWEEP_BATCH && rows.size > 0; i++) {
      const row = advance();
      if (expired(row, now, config)) drop(row);
    }
  };
  const allocate = (): number => {
    const reused = free.pop();
    if (reused !== undefined) return reused;
    if (nextRow >= capacity) {
      capacity = Math.min(maxIdentities, capacity * 2);
      const grown = new Float64Array(capacity * STATE_WIDTH);
      grown.set(slab);
      slab = grown;
      const grownUsed = new Uint8Array(capacity);
      grownUsed.set(used);
      used = grownUsed;
    }
    return nextRow++;
  };

  // An admission settled in the same call (`event.settle`): the completion's transition on the
  // row just admitted; its ticket is never held, so it settles nothing later.
  const settleAtOnce = (
    offset: number,
    index: number,
    admitted: Verdict,
    settle: { readonly status: number; readonly cpuMs: number },
    config: LimitsConfig,
  ): void => {
    const completion = {
      kind: 'complete',
      ticket: admitted.ticket!,
      status: settle.status,
      cpuMs: settle.cpuMs,
    } as const;
    stepIntoAtClock(slab, offset, completion, config, arena, index, 0);
  };

  // The event at the clock's reading in `open[OPEN.CLOCK]` (see clocked-store.ts): the limiter
  // hands the time over in memory, `apply` writes it there first.
  const applyAtClock = (event: LimitEvent, config: LimitsConfig): Verdict => {
    lastConfig = config;
    if (++calls % SWEEP_EVERY === 0 && rows.size > 0) sweepSome(open[OPEN.CLOCK]!, config);
    const key = eventKey(event);
    // Tickets (and the limiter's identities) remember the row of their identity: checked against
    // the key, the hint saves the map lookup.
    const hint = event.kind === 'admit' ? (event.hint ?? -1) : event.ticket.hint;
    const row = hint >= 0 && keys[hint] === key ? hint : rows.get(key);
    if (event.kind !== 'admit') {
      // A ticket is a claim on a slot this store holds: a copy, a forgery, or one settled or
      // expired already changes nothing.
      if (row === undefined) return unheldVerdict(scratch, 0, event.ticket, open[OPEN.CLOCK]!, config);
      const offset = row * STATE_WIDTH;
      if (AdmissionTicket.isFrom(event.ticket, issuer)) {
        // The event's time, read back from the kernel's scratch (returned, it would be boxed).
        setEventTimes(slab, offset + SLOT.at);
        tickets.time[0] = open[OPEN.NOW]!;
      }
      if (!AdmissionTicket.isFrom(event.ticket, issuer) || !tickets.claim(row, event.ticket.id))
        return unheldVerdict(slab, offset, event.ticket, open[OPEN.CLOCK]!, config);
      used[row] = 1;
      return stepIntoAtClock(slab, offset, event, config, arena, row, 0);
    }
    const id = tickets.nextId();
    const leaseMs = config.secondary.concurrency.leaseMs;
    if (row !== undefined) {
      const offset = row * STATE_WIDTH;
      setEventTimes(slab, offset + SLOT.at);
      const t = open[OPEN.NOW]!;
      used[row] = 1;
      // INVARIANT: the in-flight count is the number of tickets held with a lease still running.
      // The row's count never falls below the tickets the ledger holds for it (each event sets it
      // to the live count, then both move by one; a claim the ledger refuses only drops a ticket),
      // so a row showing none holds none: the ledger is not read.
      if (slab[offset + SLOT.inFlight] !== 0) {
        tickets.time[0] = t;
        slab[offset + SLOT.inFlight] = tickets.live(row);
      }
      const verdict = stepIntoAtClock(slab, offset, event, config, arena, row, id);
      if (verdict.allowed) {
        if (event.settle !== undefined) settleAtOnce(offset, row, verdict, event.settle, config);
        else {
          tickets.time[0] = t + leaseMs;
          tickets.hold(row, id);
          AdmissionTicket.stamp(verdict.ticket as AdmissionTicket, issuer);
        }
      }
      return verdict;
    }
    // A new identity: its first transition runs on the scratch row (all zero).
    setEventTimes(scratch, SLOT.at);
    const t = open[OPEN.NOW]!;
    const verdict = stepIntoAtClock(scratch, 0, event, config, arena, -1, id);
    // A denied first request leaves no state to keep (all or nothing), and the scratch row as it was.
    if (!verdict.allowed) return verdict;
    if (rows.size >= maxIdentities) evictOne(open[OPEN.CLOCK]!, config);
    const fresh = allocate();
    slab.set(scratch, fresh * STATE_WIDTH);
    scratch.fill(0);
    if (event.settle !== undefined) settleAtOnce(fresh * STATE_WIDTH, fresh, verdict, event.settle, config);
    // A new row earns its second chance only when used again: one-off callers go first.
    used[fresh] = 0;
    rows.set(key, fresh);
    keys[fresh] = key;
    if (event.settle === undefined) {
      tickets.time[0] = t + leaseMs;
      tickets.hold(fresh, id);
      AdmissionTicket.stamp(verdict.ticket as AdmissionTicket, issuer);
    }
    return verdict;
  };

  const store: MemoryStore = {
    sync: true,
    settlesAdmissions: true,
    get size() {
      return rows.size;
    },
    get evictions() {
      return evictions;
    },
    apply(event: LimitEvent, now: number, config: LimitsConfig): Verdict {
      open[OPEN.CLOCK] = now;
      return applyAtClock(event, config);
    },
    read(key: string, config?: LimitsConfig): IdentityState | undefined {
      const row = rows.get(key);
      return row === undefined ? undefined : stateOf(row, config ?? lastConfig ?? defaultLimits());
    },
    sweep(now: number, config: LimitsConfig): number {
      let dropped = 0;
      for (const row of rows.values()) {
        if (expired(row, now, config)) {
          drop(row);
          dropped++;
        }
      }
      return dropped;
    },
    reset(key: string): void {
      const row = rows.get(key);
      if (row !== undefined) drop(row);
    },
    close(): void {},
    clear(): void {
      tickets.clear();
      arena.clear();
      rows.clear();
      keys.length = 0;
      free.length = 0;
      nextRow = 0;
      hand = 0;
    },
  };
  return withApplierAtClock(store, applyAtClock);
}

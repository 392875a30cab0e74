/** The embedded store: every identity's state in one Float64Array, bounded in size, LRU-evicted. */
// Hot path: one apply per admission and per completion; bench/limits.mjs guards its speed.
import { TollgateError } from '../errors.js';
import { EMPTY_IDENTITY_STATE, type IdentityState } from '../limits/identity-state.js';
import { eventKey, type LimitEvent } from '../limits/limit-event.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import { stateExpiresAt } from '../limits/state-expiry.js';
import { step } from '../limits/step.js';
import type { Verdict } from '../limits/verdict.js';
import type { SyncLimitsStore } from './limits-store.js';

/** Numbers per identity: the 16 fields of IdentityState (128 bytes). */
const WIDTH = 16;
/** Every this many applies, the least recently used identities are checked for expiry. */
const SWEEP_EVERY = 64;
const SWEEP_BATCH = 4;

/** Options of `createMemoryStore`. */
export interface MemoryStoreOptions {
  /** At most this many identities are kept; beyond it the least recently used is dropped. Default 1,000,000. */
  readonly maxIdentities?: number;
}

/** The memory store, with its housekeeping. */
export interface MemoryStore extends SyncLimitsStore {
  /** Identities currently held. */
  readonly size: number;
  /** Identities dropped while their state was still live (the store was full). */
  readonly evictions: number;
  /** Drops every identity whose state has expired at `now`; returns how many. */
  sweep(now: number, config: LimitsConfig): number;
  clear(): void;
}

/**
 * The in-process store. State lives in one Float64Array (16 numbers per identity) indexed by a
 * Map from identity key to slot, whose insertion order is the recency order (LRU). Expired state
 * (`stateExpiresAt`) is dropped as the store is used; when `maxIdentities` live identities are
 * held, the least recently used one is dropped, which gives that caller fresh limits: size the
 * store for your callers. Synchronous, so the limiter answers without a promise.
 * @example
 * import { createLimiter, createMemoryStore } from 'tollgate';
 * const limiter = createLimiter({ store: createMemoryStore({ maxIdentities: 100_000 }) });
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  const maxIdentities = options.maxIdentities ?? 1_000_000;
  if (!Number.isInteger(maxIdentities) || maxIdentities < 1) {
    throw new TollgateError(
      'TOLLGATE_INVALID_OPTION',
      `memory store: \`maxIdentities\` must be a positive integer, got \`${maxIdentities}\``,
    );
  }
  let slab = new Float64Array(Math.min(maxIdentities, 1024) * WIDTH);
  const slots = new Map<string, number>();
  const free: number[] = [];
  let nextSlot = 0;
  let calls = 0;
  let evictions = 0;

  const decode = (slot: number): IdentityState => {
    const o = slot * WIDTH;
    const a = slab;
    return {
      at: a[o]!,
      inFlight: a[o + 1]!,
      restPoints: a[o + 2]!,
      graphqlPoints: a[o + 3]!,
      cpu: a[o + 4]!,
      graphqlCpu: a[o + 5]!,
      contentMinute: a[o + 6]!,
      contentHour: a[o + 7]!,
      coreReset: a[o + 8]!,
      coreUsed: a[o + 9]!,
      searchReset: a[o + 10]!,
      searchUsed: a[o + 11]!,
      graphqlReset: a[o + 12]!,
      graphqlUsed: a[o + 13]!,
      lfsReset: a[o + 14]!,
      lfsUsed: a[o + 15]!,
    };
  };
  const encode = (slot: number, s: IdentityState): void => {
    const o = slot * WIDTH;
    const a = slab;
    a[o] = s.at;
    a[o + 1] = s.inFlight;
    a[o + 2] = s.restPoints;
    a[o + 3] = s.graphqlPoints;
    a[o + 4] = s.cpu;
    a[o + 5] = s.graphqlCpu;
    a[o + 6] = s.contentMinute;
    a[o + 7] = s.contentHour;
    a[o + 8] = s.coreReset;
    a[o + 9] = s.coreUsed;
    a[o + 10] = s.searchReset;
    a[o + 11] = s.searchUsed;
    a[o + 12] = s.graphqlReset;
    a[o + 13] = s.graphqlUsed;
    a[o + 14] = s.lfsReset;
    a[o + 15] = s.lfsUsed;
  };
  const drop = (key: string, slot: number): void => {
    slots.delete(key);
    free.push(slot);
  };
  const allocate = (): number => {
    const reused = free.pop();
    if (reused !== undefined) return reused;
    if (nextSlot * WIDTH >= slab.length) {
      const grown = new Float64Array(Math.min(maxIdentities, (slab.length / WIDTH) * 2) * WIDTH);
      grown.set(slab);
      slab = grown;
    }
    return nextSlot++;
  };
  /** Drops expired identities from the least recently used end. */
  const sweepOldest = (now: number, config: LimitsConfig): void => {
    let checked = 0;
    for (const [key, slot] of slots) {
      if (checked++ >= SWEEP_BATCH || stateExpiresAt(decode(slot), config) > now) return;
      drop(key, slot);
    }
  };

  return {
    sync: true,
    get size() {
      return slots.size;
    },
    get evictions() {
      return evictions;
    },
    apply(event: LimitEvent, now: number, config: LimitsConfig): Verdict {
      if (++calls % SWEEP_EVERY === 0) sweepOldest(now, config);
      const key = eventKey(event);
      let slot = slots.get(key);
      const state = slot === undefined ? undefined : decode(slot);
      const result = step(state, event, now, config);
      // A denied admission returns the state it was given: nothing to write (all or nothing).
      if (result.state === (state ?? EMPTY_IDENTITY_STATE)) return result.verdict;
      if (slot === undefined) {
        if (slots.size >= maxIdentities) {
          const oldest = slots.entries().next().value;
          if (oldest !== undefined) {
            drop(oldest[0], oldest[1]);
            if (stateExpiresAt(decode(oldest[1]), config) > now) evictions++;
          }
        }
        slot = allocate();
      } else {
        slots.delete(key); // re-inserted below: most recently used last
      }
      encode(slot, result.state);
      slots.set(key, slot);
      return result.verdict;
    },
    read(key: string): IdentityState | undefined {
      const slot = slots.get(key);
      return slot === undefined ? undefined : decode(slot);
    },
    sweep(now: number, config: LimitsConfig): number {
      let dropped = 0;
      for (const [key, slot] of slots) {
        if (stateExpiresAt(decode(slot), config) <= now) {
          drop(key, slot);
          dropped++;
        }
      }
      return dropped;
    },
    clear(): void {
      slots.clear();
      free.length = 0;
      nextSlot = 0;
    },
  };
}

/** What the limiter needs from a store: apply one event to one identity's state, atomically. */
import type { IdentityState } from './identity-state.js';
import type { LimitEvent } from './limit-event.js';
import type { LimitsConfig } from './limits-config.js';
import type { Verdict } from './verdict.js';

/**
 * A store that answers synchronously (the memory store). `apply` must behave exactly like
 * `step(read(key), event, now, config)` followed by writing the new state back, atomically:
 * no other event of the same identity in between. The event belongs to the caller: the limiter
 * reuses it for the next admission, so a store must not keep it once `apply` returns.
 * @example
 * import { createMemoryStore } from 'tollgate';
 * import type { SyncLimitsStore } from 'tollgate/limits';
 * const store: SyncLimitsStore = createMemoryStore();
 */
export interface SyncLimitsStore {
  readonly sync: true;
  /** True when `apply` settles an admission carrying `settle` in the same call; otherwise the limiter admits, then completes. */
  readonly settlesAdmissions?: boolean;
  apply(event: LimitEvent, now: number, config: LimitsConfig): Verdict;
  /** The identity's state, or undefined when the store holds none (same as a new identity). */
  read(key: string): IdentityState | undefined;
  /** Forgets one identity (its state and its tickets in flight): `limiter.reset` needs it. */
  reset?(key: string): void;
  /** Settles what is in flight and lets go of what the store holds; `gate.close()` calls it. */
  close?(): void | Promise<void>;
}

/**
 * A store that answers asynchronously (a Redis store). Same contract as `SyncLimitsStore`; a
 * Redis store runs `step` as one script per event (read state, transition, write, expire at
 * `stateExpiresAt`), so every bucket of a request costs one round trip.
 * @example
 * import { createLimiter, createMemoryStore } from 'tollgate';
 * import type { AsyncLimitsStore } from 'tollgate/limits';
 * const memory = createMemoryStore();
 * const store: AsyncLimitsStore = {
 *   sync: false,
 *   apply: async (event, now, config) => memory.apply(event, now, config),
 *   read: async (key) => memory.read(key),
 * };
 * const limiter = createLimiter({ store }); // limiter.admit(...) answers a Promise<Verdict>
 */
export interface AsyncLimitsStore {
  readonly sync: false;
  /** True when `apply` settles an admission carrying `settle` in the same call; otherwise the limiter admits, then completes. */
  readonly settlesAdmissions?: boolean;
  apply(event: LimitEvent, now: number, config: LimitsConfig): Promise<Verdict>;
  read(key: string): Promise<IdentityState | undefined>;
  /** Forgets one identity (its state and its tickets in flight): `limiter.reset` needs it. */
  reset?(key: string): Promise<void>;
  /** Settles what is in flight and lets go of what the store holds; `gate.close()` calls it. */
  close?(): Promise<void>;
}

/**
 * Any store the limiter can use.
 * @example
 * import { createLimiter, type LimitsStore } from 'tollgate';
 * function limiterOver<S extends LimitsStore>(store: S) { return createLimiter({ store }); }
 */
export type LimitsStore = SyncLimitsStore | AsyncLimitsStore;

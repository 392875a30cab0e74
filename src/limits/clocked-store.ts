/** How the limiter hands an event's time to tollgate's own memory store: in memory, not as an argument. */
import type { LimitEvent } from './limit-event.js';
import type { LimitsConfig } from './limits-config.js';
import type { Verdict } from './verdict.js';

/**
 * `apply` without its `now`: the time is in `open[OPEN.CLOCK]`.
 * @example
 * import type { ApplyAtClock } from './clocked-store.js';
 * const refuse: ApplyAtClock = () => { throw new Error('no store here'); };
 */
export type ApplyAtClock = (event: LimitEvent, config: LimitsConfig) => Verdict;

/** A memory store's two applies: its public one, and the one at the clock's reading in the scratch. */
interface Applies {
  readonly apply: unknown;
  readonly atClock: ApplyAtClock;
}

/**
 * The memory stores' `apply` at the clock's reading the caller wrote into `open[OPEN.CLOCK]`
 * (open-logs.ts), by store object: not part of any store contract. An epoch-ms double passed to a
 * function V8 does not inline is boxed into a 16-byte heap number; handed over in the kernel's
 * scratch, the time crosses the limiter, the store and the kernel with no allocation. Keyed by the
 * store object itself, so a wrapper, a Proxy or a copy of a memory store is called through its own
 * `apply`, never around it; and kept with the store's own `apply`, so a store whose `apply` was
 * replaced afterwards (instrumented, spied on) is called through the replacement.
 */
const AT_CLOCK = new WeakMap<object, Applies>();

/**
 * `store`, registered with `atClock`: its apply at the clock's reading in the kernel's scratch,
 * good while `store.apply` is the one it has now.
 * @example
 * import { applierAtClock, withApplierAtClock } from './clocked-store.js';
 * const store = withApplierAtClock({ apply: () => null }, () => { throw new Error('not here'); });
 * typeof applierAtClock(store); // 'function'
 */
export function withApplierAtClock<Store extends { readonly apply: unknown }>(
  store: Store,
  atClock: ApplyAtClock,
): Store {
  AT_CLOCK.set(store, { apply: store.apply, atClock });
  return store;
}

/**
 * The apply at the clock's reading of `store` while it is a memory store itself (not a wrapper of
 * one) whose `apply` is still its own, else undefined. Ask again before each call: `apply` may be
 * replaced at any time.
 * @example
 * import { createMemoryStore } from '../stores/memory-store.js';
 * import { applierAtClock } from './clocked-store.js';
 * const store = createMemoryStore();
 * typeof applierAtClock(store); // 'function'
 * applierAtClock({ ...store }); // undefined
 */
export function applierAtClock(store: { readonly apply: unknown }): ApplyAtClock | undefined {
  const applies = AT_CLOCK.get(store);
  return applies !== undefined && applies.apply === store.apply ? applies.atClock : undefined;
}

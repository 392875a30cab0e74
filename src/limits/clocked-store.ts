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

/**
 * The memory stores' `apply` at the clock's reading the caller wrote into `open[OPEN.CLOCK]`
 * (open-logs.ts), by store object: not part of any store contract. An epoch-ms double passed to a
 * function V8 does not inline is boxed into a 16-byte heap number; handed over in the kernel's
 * scratch, the time crosses the limiter, the store and the kernel with no allocation. Keyed by the
 * store object itself, so a wrapper, a Proxy or a copy of a memory store is called through its own
 * `apply`, never around it.
 */
const AT_CLOCK = new WeakMap<object, ApplyAtClock>();

/**
 * `store`, registered with `apply`: its apply at the clock's reading in the kernel's scratch.
 * @example
 * import { applierAtClock, withApplierAtClock } from './clocked-store.js';
 * const store = withApplierAtClock({}, () => { throw new Error('not here'); });
 * typeof applierAtClock(store); // 'function'
 */
export function withApplierAtClock<Store extends object>(store: Store, apply: ApplyAtClock): Store {
  AT_CLOCK.set(store, apply);
  return store;
}

/**
 * The apply at the clock's reading of `store` when it is a memory store itself (not a wrapper of
 * one), else undefined.
 * @example
 * import { createMemoryStore } from '../stores/memory-store.js';
 * import { applierAtClock } from './clocked-store.js';
 * const store = createMemoryStore();
 * typeof applierAtClock(store); // 'function'
 * applierAtClock({ ...store }); // undefined
 */
export function applierAtClock(store: object): ApplyAtClock | undefined {
  return AT_CLOCK.get(store);
}

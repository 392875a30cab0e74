/** A synchronous store's apply at the limiter's clock: for tollgate's memory store, the reading handed over in memory. */
import { applierAtClock } from '../limits/clocked-store.js';
import type { LimitEvent } from '../limits/limit-event.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import type { SyncLimitsStore } from '../limits/limits-store.js';
import { OPEN, open } from '../limits/open-logs.js';
import type { Verdict } from '../limits/verdict.js';

/**
 * `store.apply(event, clock(), config)` for a synchronous store; for tollgate's memory store, the
 * clock's reading written into the kernel's scratch and the store's apply at it, so the time is
 * never a heap number of its own. The clock is the limiter's (`Date.now` unless it was given one).
 * @example
 * import { defaultLimits } from '../limits/default-limits.js';
 * import { createMemoryStore } from '../stores/memory-store.js';
 * import { applyingNow } from './apply-now.js';
 * const apply = applyingNow(createMemoryStore(), () => 1_700_000_000_000, defaultLimits());
 * apply({ kind: 'admit', key: 'user:octocat', resource: 'core', limit: 5000, cost: 1, content: false, graphql: false, countsPrimary: true }).allowed; // true
 */
export function applyingNow(
  store: SyncLimitsStore,
  clock: () => number,
  config: LimitsConfig,
): (event: LimitEvent) => Verdict {
  const atClock = applierAtClock(store);
  if (atClock === undefined) return (event) => store.apply(event, clock(), config);
  const ownApply = store.apply;
  return (event) => {
    // A store whose `apply` was replaced since (instrumented, spied on) is called through it.
    if (store.apply !== ownApply) return store.apply(event, clock(), config);
    // The default clock called as itself, while it is still the global one (fake timers replace
    // it; then `clock`, as every other path reads it): V8 reads Date.now into the scratch as a
    // plain double, where a call through the `clock` variable returns a heap number once it is not
    // inlined (a process that made several limiters).
    open[OPEN.CLOCK] = clock === Date.now ? Date.now() : clock();
    return atClock(event, config);
  };
}

/** A store's apply as the limiter calls it: a synchronous store's at the limiter's clock (for tollgate's memory store, the reading handed over in memory), an asynchronous store's answer as a promise. */
import { applierAtClock } from '../limits/clocked-store.js';
import type { LimitEvent } from '../limits/limit-event.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import type { SyncLimitsStore } from '../limits/limits-store.js';
import { OPEN, open } from '../limits/open-logs.js';
import type { Verdict } from '../limits/verdict.js';
import { invalid } from './limiter-inputs.js';

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
  if (atClock === undefined) {
    // A store of the caller's: one that says `sync: true` and answers a promise is refused on its
    // first answer (an admission, a completion or a release: the limiter sends each through here),
    // and the slot that answer may hold is given back once it settles.
    return (event) => {
      const verdict = store.apply(event, clock(), config);
      if (verdict instanceof Promise) throw refusedAnswer(store, verdict, clock, config);
      return verdict;
    };
  }
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

// The misuse, thrown to the caller (the gate sends it to the framework's error path); an admission
// the store made all the same is released when its answer comes, so no slot stays held.
function refusedAnswer(
  store: SyncLimitsStore,
  answer: Promise<Verdict>,
  clock: () => number,
  config: LimitsConfig,
): Error {
  // Whatever the store does with the release (throws, rejects) stays here: the error thrown below is the one to see.
  answer
    .then((verdict) => {
      if (verdict?.ticket)
        return store.apply({ kind: 'release', ticket: verdict.ticket, cpuMs: 0 }, clock(), config);
    })
    .catch(() => {});
  return invalid(
    'the store says `sync: true` but its `apply` returned a Promise; give `sync: false` for a store that answers asynchronously',
  );
}

/**
 * An asynchronous store's answer as a promise: one written by hand may answer a Verdict at once,
 * which the limiter's callers would otherwise take for a synchronous store's.
 * @example
 * import type { Verdict } from '../limits/verdict.js';
 * import { promised } from './apply-now.js';
 * declare const verdict: Verdict;
 * promised(verdict) instanceof Promise; // true
 */
export function promised(answer: Verdict | Promise<Verdict>): Promise<Verdict> {
  return answer instanceof Promise ? answer : Promise.resolve(answer);
}

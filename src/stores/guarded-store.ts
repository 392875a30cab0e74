/**
 * A failure policy around a store of your own (over a database, a service): the Redis store's
 * timeouts, pause and failure modes, as a layer (rate-limiter-flexible's insurance limiter is
 * one). Without it, a store that hangs holds every request it was asked about for as long as it
 * hangs, and a store that throws fails each request with a 500.
 */
import { TollgateError } from '../core/errors.js';
import type { LimitEvent } from '../limits/limit-event.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import type { AsyncLimitsStore, LimitsStore } from '../limits/limits-store.js';
import type { Verdict } from '../limits/verdict.js';
import { checkFailureOptions, type FailureOptions } from './failure-options.js';
import { createFailurePolicy } from './redis-failure-policy.js';

/** The event as the store is given it: a copy, since the limiter reuses its own once answered. */
function ownCopy(event: LimitEvent): LimitEvent {
  return { ...event };
}

/**
 * Wraps `store` in the failure policy `options` states (`timeoutMs` 50, `onFailure:
 * 'fail-closed'`, `retryAfterFailureMs` 1,000, `fallbackShare` 1 by default, as the Redis store):
 * an event the store does not answer within `timeoutMs`, or answers with an error, is decided by
 * the mode (`degraded` on the verdict says which), and the store is left alone for
 * `retryAfterFailureMs`. An admission the store grants after the guard answered for it is
 * released in the store, so its slot does not stay held. Tickets the guard answered itself
 * (`fallback`, `fail-open`) are settled by the guard, never sent to the store. The store gets a
 * copy of each event, so it may read it after the guard has answered.
 * @example
 * import { createLimiter, createMemoryStore, guardStore } from 'tollgate';
 * // Any store: yours over a database; the memory store here stands in for it.
 * const store = guardStore(createMemoryStore(), { timeoutMs: 100, onFailure: 'fallback' });
 * const limiter = createLimiter({ store }); // limiter.admit(...) answers a Promise<Verdict>
 */
export function guardStore(store: LimitsStore, options: FailureOptions = {}): AsyncLimitsStore {
  if (
    typeof store !== 'object' ||
    store === null ||
    typeof store.apply !== 'function' ||
    typeof store.read !== 'function'
  )
    throw new TollgateError(
      'TOLLGATE_INVALID_OPTION',
      `guardStore: \`store\` is \`${String(store)}\`; expected a store (\`{ sync, apply, read }\`, as createMemoryStore returns)`,
    );
  if (typeof options !== 'object' || options === null)
    throw new TollgateError(
      'TOLLGATE_INVALID_OPTION',
      `guardStore: \`options\` is \`${String(options)}\`; expected \`{ timeoutMs, onFailure, retryAfterFailureMs, fallbackShare }\``,
    );
  const settings = checkFailureOptions(options, 'guardStore');
  const policy = createFailurePolicy({ status: 'ready' }, { ...settings, failing: 'guardStore: the store' });
  /** How long `close` waits for calls in flight: the call watch's own longest wait. */
  const closeWaitMs = Math.max(1000, 20 * settings.timeoutMs);

  /**
   * Gives back the slot of an admission granted after the guard answered it, at the admission's
   * time plus the time since (at the admission's own time, a store would read a clock gone back).
   */
  const releaseLate = (now: number, sentAt: number, config: LimitsConfig) => (late: Verdict) => {
    if (late.ticket === null) return;
    const released = { kind: 'release', ticket: late.ticket, cpuMs: 0 } as const;
    const later = now + Math.max(0, Date.now() - sentAt);
    Promise.resolve()
      .then(() => store.apply(released, later, config))
      .catch(() => {
        // The store failed again: the slot is freed when its lease runs out (`secondary.concurrency.leaseMs`).
      });
  };

  const guarded: AsyncLimitsStore = {
    sync: false,
    async apply(event, now, config) {
      if (event.kind !== 'admit' && policy.ownsTicket(event.ticket)) return policy.decide(event, now, config);
      const given = ownCopy(event);
      const answer = await policy.guard(
        async (call) => {
          call.sending();
          return await store.apply(given, now, config);
        },
        given.kind === 'admit' ? releaseLate(now, Date.now(), config) : undefined,
      );
      return answer ?? policy.decide(event, now, config);
    },
    async read(key) {
      const read = await policy.guard(async (call) => {
        call.sending();
        return { state: await store.read(key) };
      });
      return read === null ? policy.read(key) : read.state;
    },
    async close() {
      // A hung call never settles: wait for the calls in flight as long as the watch would, then
      // close the store anyway (closing is often what ends a hung call: a database pool's end).
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        policy.idle(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, closeWaitMs);
        }),
      ]);
      clearTimeout(timer);
      await store.close?.();
    },
  };
  if (typeof store.reset === 'function') {
    const reset = store.reset.bind(store);
    return {
      ...guarded,
      async reset(key) {
        policy.reset(key);
        // Under the timeout too: a hung store would hold `limiter.reset` forever.
        const done = await policy.guard(async (call) => {
          call.sending();
          await reset(key);
          return true;
        });
        if (done === null)
          throw new TollgateError(
            'TOLLGATE_STORE_UNAVAILABLE',
            `guardStore: the store failed or did not answer within ${settings.timeoutMs} ms; \`${key}\` was not reset`,
          );
      },
    };
  }
  return guarded;
}

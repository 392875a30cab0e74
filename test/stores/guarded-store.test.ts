// guardStore: the Redis store's failure policy around a store of one's own. Until it, a custom
// store had no timeout (a hung database held every request it was asked about) and no failure
// mode (a throwing one failed each request with a 500). The store here is the README's custom
// store (examples/custom-store.ts) behind a switch that makes it hang, answer late or throw.
import { describe, expect, it } from 'vitest';
import { createMapStore } from '../../examples/custom-store.js';
import { createLimiter } from '../../src/limiter/create-limiter.js';
import { defaultLimits } from '../../src/limits/default-limits.js';
import type { LimitEvent } from '../../src/limits/limit-event.js';
import type { LimitsConfig } from '../../src/limits/limits-config.js';
import type { AsyncLimitsStore } from '../../src/limits/limits-store.js';
import { guardStore } from '../../src/stores/guarded-store.js';
import { thrown } from '../support/thrown.js';
import { limitsStoreContract } from './limits-store.case.js';

const CONFIG = defaultLimits();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Mode = 'answer' | 'hang' | 'late' | 'throw';

/** The example store behind a switch; `calls` counts what reached it. */
function switchable() {
  const inner = createMapStore();
  const state = { mode: 'answer' as Mode, calls: 0, lateMs: 100 };
  const store: AsyncLimitsStore = {
    sync: false,
    async apply(event: LimitEvent, now: number, config: LimitsConfig) {
      state.calls++;
      if (state.mode === 'hang') return new Promise(() => {});
      if (state.mode === 'throw') throw new Error('connection refused');
      if (state.mode === 'late') await sleep(state.lateMs);
      return inner.apply(event, now, config);
    },
    read: async (key: string) => inner.read(key),
    reset: async (key: string) => inner.reset?.(key),
  };
  return { inner, store, state };
}

limitsStoreContract('guardStore around the custom store example', () => guardStore(createMapStore()), CONFIG);

describe('guardStore', () => {
  it('answers 503 within its timeout when the store hangs, then leaves the store alone for the pause', async () => {
    const { store, state } = switchable();
    const limiter = createLimiter({
      store: guardStore(store, { timeoutMs: 30, retryAfterFailureMs: 60_000 }),
    });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    state.mode = 'hang';
    const started = Date.now();
    const verdict = await limiter.admit({ identity });
    expect(verdict).toMatchObject({ allowed: false, degraded: 'fail-closed', status: 503 });
    // Bounded by the timeout (the watch may wait once more when the event loop was busy), not the hang.
    expect(Date.now() - started).toBeLessThan(5_000);
    const calls = state.calls;
    const during = await limiter.admit({ identity });
    expect(during).toMatchObject({ allowed: false, degraded: 'fail-closed' });
    expect(state.calls).toBe(calls);
  });

  it('takes a throwing store as failing: the mode decides, not a 500', async () => {
    const { store, state } = switchable();
    const limiter = createLimiter({ store: guardStore(store, { onFailure: 'fail-open' }) });
    state.mode = 'throw';
    const verdict = await limiter.admit({
      identity: limiter.identify({ kind: 'anonymous', ip: '10.0.0.1' }),
    });
    expect(verdict).toMatchObject({ allowed: true, degraded: 'fail-open' });
    // A ticket the guard answered is settled by the guard, never sent to the store.
    const calls = state.calls;
    await limiter.complete(verdict.ticket!, { status: 200 });
    expect(state.calls).toBe(calls);
  });

  it('releases in the store an admission it granted after the guard had answered for it', async () => {
    const { inner, store, state } = switchable();
    const limiter = createLimiter({ store: guardStore(store, { timeoutMs: 20, retryAfterFailureMs: 0 }) });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    state.mode = 'late';
    const verdict = await limiter.admit({ identity });
    expect(verdict).toMatchObject({ allowed: false, degraded: 'fail-closed' });
    // The store granted it at 100 ms: it held a slot no request would free, until the guard gave it back.
    await sleep(400);
    expect(inner.read(identity.key)?.inFlight).toBe(0);
    expect(inner.read(identity.key)?.coreUsed).toBe(1);
  });

  it('decides in its own memory in fallback, and settles there what it admitted', async () => {
    const { inner, store, state } = switchable();
    const limiter = createLimiter({
      store: guardStore(store, { onFailure: 'fallback', retryAfterFailureMs: 60_000 }),
    });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    state.mode = 'throw';
    const first = await limiter.admit({ identity });
    expect(first).toMatchObject({ allowed: true, degraded: 'fallback', remaining: 4999 });
    const second = await limiter.admit({ identity });
    expect(second).toMatchObject({ allowed: true, degraded: 'fallback', remaining: 4998 });
    await limiter.complete(first.ticket!, { status: 200 });
    await limiter.complete(second.ticket!, { status: 200 });
    expect((await limiter.status(identity)).rate).toMatchObject({ used: 2 });
    expect(inner.read(identity.key)).toBeUndefined();
  });

  it('goes back to the store once the pause is over', async () => {
    const { inner, store, state } = switchable();
    const limiter = createLimiter({ store: guardStore(store, { timeoutMs: 20, retryAfterFailureMs: 50 }) });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    state.mode = 'throw';
    expect(await limiter.admit({ identity })).toMatchObject({ degraded: 'fail-closed' });
    state.mode = 'answer';
    await sleep(80);
    const verdict = await limiter.admit({ identity });
    expect(verdict).toMatchObject({ allowed: true });
    expect(verdict.degraded).toBeUndefined();
    await limiter.complete(verdict.ticket!, { status: 200 });
    expect(inner.read(identity.key)).toMatchObject({ inFlight: 0, coreUsed: 1 });
  });

  it('refuses a bad option or store at once, naming it', () => {
    const { store } = switchable();
    for (const [options, fragment] of [
      [{ timeoutMs: 0 }, 'guardStore: `timeoutMs` is `0`; expected a positive number of milliseconds'],
      [
        { onFailure: 'retry' },
        "guardStore: `onFailure` is `'retry'`; valid: fail-closed, fail-open, fallback",
      ],
      [{ fallbackShare: 2 }, 'guardStore: `fallbackShare` is `2`'],
    ] as const) {
      const error = thrown(() => guardStore(store, options as never));
      expect(error).toMatchObject({ code: 'TOLLGATE_INVALID_OPTION' });
      expect(error.message).toContain(fragment);
    }
    expect(thrown(() => guardStore(null as never))).toMatchObject({
      code: 'TOLLGATE_INVALID_OPTION',
      message: expect.stringContaining('guardStore: `store` is `null`; expected a store'),
    });
  });
});

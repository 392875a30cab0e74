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
import { T0 } from '../limits/support.js';
import { thrown } from '../support/thrown.js';
import { limitsStoreContract } from './limits-store.case.js';

const CONFIG = defaultLimits();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Mode = 'answer' | 'hang' | 'late' | 'throw';

/** The example store behind a switch; `calls` counts what reached it. */
function switchable() {
  const inner = createMapStore();
  let answerLate = () => {};
  /** In 'late' mode an answer waits for the test's word: no race against the guard's timer. */
  const held = () => new Promise<void>((resolve) => (answerLate = resolve));
  const state = { mode: 'answer' as Mode, calls: 0, closed: false, answerLate: () => answerLate() };
  const store: AsyncLimitsStore = {
    sync: false,
    async apply(event: LimitEvent, now: number, config: LimitsConfig) {
      state.calls++;
      if (state.mode === 'hang') return new Promise(() => {});
      if (state.mode === 'throw') throw new Error('connection refused');
      if (state.mode === 'late') await held();
      return inner.apply(event, now, config);
    },
    read: async (key: string) => {
      if (state.mode === 'hang') return new Promise(() => {});
      return inner.read(key);
    },
    reset: async (key: string) => inner.reset?.(key),
    close: async () => {
      state.closed = true;
    },
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
    const verdict = await limiter.admit({ identity });
    expect(verdict).toMatchObject({ allowed: false, degraded: 'fail-closed', status: 503 });
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

  it('releases in the store an admission it granted after the guard had answered for it, at the time it learnt of it', async () => {
    const { inner, store, state } = switchable();
    const limiter = createLimiter({
      store: guardStore(store, { timeoutMs: 20, retryAfterFailureMs: 0 }),
      clock: () => T0,
    });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    state.mode = 'late';
    const verdict = await limiter.admit({ identity });
    expect(verdict).toMatchObject({ allowed: false, degraded: 'fail-closed' });
    // The store grants it after the guard's 503: a slot no request would free, unless given back.
    await sleep(60);
    state.mode = 'answer';
    state.answerLate();
    await sleep(100);
    const after = inner.read(identity.key)!;
    expect(after.inFlight).toBe(0);
    expect(after.coreUsed).toBe(1);
    // Released at the admission's time plus the time since, not at the admission's own time
    // (the review: a store told the earlier time reads a clock gone back).
    expect(after.at).toBeGreaterThanOrEqual(T0 + 60);
  });

  it('closes a store that hung, after waiting for its calls as long as its watch would', async () => {
    const { store, state } = switchable();
    const guarded = guardStore(store, { timeoutMs: 20 });
    const limiter = createLimiter({ store: guarded });
    state.mode = 'hang';
    await limiter.admit({ identity: limiter.identify({ kind: 'classic', user: 'octocat' }) });
    await guarded.close!();
    expect(state.closed).toBe(true);
  });

  it('bounds a reset by the timeout too, and says it did not happen', async () => {
    const { store, state } = switchable();
    const guarded = guardStore({ ...store, reset: () => new Promise<void>(() => {}) }, { timeoutMs: 20 });
    state.mode = 'answer';
    await expect(guarded.reset!('user:octocat')).rejects.toMatchObject({
      code: 'TOLLGATE_STORE_UNAVAILABLE',
      message: expect.stringContaining('`user:octocat` was not reset'),
    });
  });

  it('says the store failed, not Redis, when it cannot read a state in fail-closed', async () => {
    const { store, state } = switchable();
    const guarded = guardStore(store, { timeoutMs: 20 });
    state.mode = 'hang';
    await expect(guarded.read('user:octocat')).rejects.toMatchObject({
      code: 'TOLLGATE_STORE_UNAVAILABLE',
      message: expect.stringMatching(/^guardStore: the store failed or did not answer within 20 ms/),
    });
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

// The limiter over stores that answer with promises: an asynchronous store of the caller's, one in
// front of the memory store, and one that says it is synchronous and is not.
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/limiter/create-limiter.js';
import type { LimitEvent } from '../../src/limits/limit-event.js';
import type { LimitsConfig } from '../../src/limits/limits-config.js';
import type { AsyncLimitsStore, SyncLimitsStore } from '../../src/limits/limits-store.js';
import type { Verdict } from '../../src/limits/verdict.js';
import { createMemoryStore } from '../../src/stores/memory-store.js';
import { thrown } from '../support/thrown.js';
import { fakeClock } from './fake-clock.js';

describe('createLimiter over asynchronous stores', () => {
  it('settles a ticket once over an asynchronous store, even before the first answer arrives', async () => {
    const inner = createMemoryStore();
    let applied = 0;
    const store: AsyncLimitsStore = {
      sync: false,
      apply: async (event: LimitEvent, now: number, config: LimitsConfig): Promise<Verdict> => {
        applied++;
        return inner.apply(event, now, config);
      },
      read: async (key: string) => inner.read(key),
    };
    const limiter = createLimiter({ store, clock: fakeClock().now });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    const ticket = (await limiter.admit({ identity })).ticket!;
    const answers = [limiter.complete(ticket, { status: 304 }), limiter.release(ticket)];
    await Promise.all(answers);
    expect(applied).toBe(2);
    expect(await limiter.store.read(identity.key)).toMatchObject({ inFlight: 0, coreUsed: 0 });
  });

  // Found by a new user's trial: a store that waits before handing the event to a memory store
  // (a log written first, a network hop) got the completion after the limiter had recorded its
  // answer on the ticket, which erased the memory store's mark: no slot was ever freed, and
  // request 101 was refused for concurrency.
  it.each([
    ['a microtask', () => Promise.resolve()],
    ['a turn of the event loop', () => new Promise<void>((resolve) => setImmediate(resolve))],
  ])(
    'frees every slot through an asynchronous store that waits %s before a memory store',
    async (_, wait) => {
      const inner = createMemoryStore();
      let settled = 0;
      const store: AsyncLimitsStore = {
        sync: false,
        apply: async (event: LimitEvent, now: number, config: LimitsConfig): Promise<Verdict> => {
          await wait();
          if (event.kind !== 'admit') settled++;
          return inner.apply(event, now, config);
        },
        read: async (key: string) => inner.read(key),
      };
      const clock = fakeClock();
      const limiter = createLimiter({ store, clock: clock.now });
      const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
      const limit = limiter.config.secondary.concurrency.limit;
      for (let i = 0; i < limit + 5; i++) {
        const verdict = await limiter.admit({ identity });
        expect(verdict.allowed, `request ${i + 1}`).toBe(true);
        await limiter.complete(verdict.ticket!, { status: 200 });
        clock.advance(10);
      }
      expect(settled).toBe(limit + 5);
      expect(await limiter.store.read(identity.key)).toMatchObject({ inFlight: 0 });
      // A copy of a ticket is still no claim on a slot, through the wrapper as directly.
      const held = (await limiter.admit({ identity })).ticket!;
      await limiter.complete(JSON.parse(JSON.stringify(held)), { status: 200 });
      expect(await limiter.store.read(identity.key)).toMatchObject({ inFlight: 1 });
      await limiter.complete(held, { status: 200 });
      expect(await limiter.store.read(identity.key)).toMatchObject({ inFlight: 0 });
    },
  );

  // Found by a new user's trial: a store whose `sync` said the opposite of what its `apply` did
  // failed each request with a TypeError (`verdict.then is not a function`, `reading 'hint'`) and
  // left the slot it had taken held.
  it('takes an asynchronous store whose apply answers at once, as promises', async () => {
    const inner = createMemoryStore();
    const store = {
      sync: false as const,
      apply: (event: LimitEvent, now: number, config: LimitsConfig) => inner.apply(event, now, config),
      read: async (key: string) => inner.read(key),
    };
    const limiter = createLimiter({ store: store as unknown as AsyncLimitsStore, clock: fakeClock().now });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    const admitted = limiter.admit({ identity });
    expect(admitted).toBeInstanceOf(Promise);
    const ticket = (await admitted).ticket!;
    const completed = limiter.complete(ticket, { status: 200 });
    expect(completed).toBeInstanceOf(Promise);
    await completed;
    expect(inner.read(identity.key)).toMatchObject({ inFlight: 0 });
    const released = limiter.release((await limiter.admit({ identity })).ticket!);
    expect(released).toBeInstanceOf(Promise);
    await released;
    expect(inner.read(identity.key)).toMatchObject({ inFlight: 0 });
  });

  it('refuses a store that says sync: true and answers a promise, and gives back the slot it took', async () => {
    const inner = createMemoryStore();
    const answered: Promise<Verdict>[] = [];
    const store = {
      sync: true as const,
      apply: (event: LimitEvent, now: number, config: LimitsConfig) => {
        const answer = Promise.resolve().then(() => inner.apply(event, now, config));
        answered.push(answer);
        return answer;
      },
      read: (key: string) => inner.read(key),
    };
    const limiter = createLimiter({ store: store as unknown as SyncLimitsStore, clock: fakeClock().now });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    for (let i = 0; i < 3; i++) {
      const error = thrown(() => limiter.admit({ identity }));
      expect(error.code).toBe('TOLLGATE_INVALID_OPTION');
      expect(error.message).toBe(
        'limiter: the store says `sync: true` but its `apply` returned a Promise; give `sync: false` for a store that answers asynchronously',
      );
    }
    expect((await Promise.all(answered)).map((verdict) => verdict.allowed)).toEqual([true, true, true]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(inner.read(identity.key)).toMatchObject({ inFlight: 0 });
  });

  it('works over an asynchronous store, returning promises', async () => {
    const inner = createMemoryStore();
    const store: AsyncLimitsStore = {
      sync: false,
      apply: async (event: LimitEvent, now: number, config: LimitsConfig): Promise<Verdict> =>
        inner.apply(event, now, config),
      read: async (key: string) => inner.read(key),
    };
    const limiter = createLimiter({ store, clock: fakeClock().now });
    const identity = limiter.identify({ kind: 'workflow', repository: 'octo/app' });
    const verdict = await limiter.admit({ identity });
    expect(verdict).toMatchObject({ allowed: true, limit: 1000 });
    await limiter.complete(verdict.ticket!, { status: 200 });
    expect((await limiter.status(identity)).rate.used).toBe(1);
  });
});

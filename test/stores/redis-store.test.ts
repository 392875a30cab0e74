import { describe, expect, it } from 'vitest';
import { createRedisStore } from '../../src/stores/redis-store.js';
import { admitEvent, config, T0 } from '../limits/support.js';
import { runRedisTests, sharedRedis } from '../support/redis-server.js';
import { limitsStoreContract } from './limits-store.case.js';

describe.runIf(runRedisTests)('the Redis store', () => {
  const redis = sharedRedis();
  let stores = 0;

  // Each store its own key prefix: a fresh store, as the contract expects, on one server.
  limitsStoreContract(
    'the Redis store',
    () =>
      createRedisStore({
        client: redis.client,
        prefix: `contract${stores++}:`,
        useCallerClock: true,
        timeoutMs: 2_000,
      }),
    config,
  );

  it('keeps one identity in one hash slot: every key tagged with the identity', () => {
    const store = createRedisStore({ client: redis.client, prefix: 'p:' });
    expect(store.keysOf('user:octocat')).toEqual(['p:{user:octocat}:s', 'p:{user:octocat}:t']);
  });

  it('leaves no key behind once every window has ended (DBSIZE)', async () => {
    const dbsize = () => redis.client.dbsize();
    const store = createRedisStore({ client: redis.client, prefix: 'expiry:', timeoutMs: 2_000 });
    await redis.client.flushall();
    // The server's own clock: a REST read, completed at once, leaves a 1 s points refill and a core
    // window of an hour. With a window of one second, nothing outlives a couple of seconds.
    const short = { ...config, primary: { ...config.primary, windowMs: 1_000 } };
    const admitted = await store.apply(admitEvent({ key: 'user:brief' }), Date.now(), short);
    await store.apply(
      { kind: 'complete', ticket: admitted.ticket!, status: 200, cpuMs: 0 },
      Date.now(),
      short,
    );
    expect(await dbsize()).toBe(1); // the state (an empty ticket set is no key)
    await expect.poll(dbsize, { timeout: 5_000, interval: 100 }).toBe(0);
  });

  it('never hands out a ticket id twice, even for many admissions in one millisecond', async () => {
    const store = createRedisStore({
      client: redis.client,
      prefix: 'ids:',
      useCallerClock: true,
      timeoutMs: 2_000,
    });
    const ids = new Set<number>();
    for (let i = 0; i < 1_100; i++) {
      const verdict = await store.apply(admitEvent({ key: 'user:busy', limit: 1e9, cost: 0 }), T0, config);
      ids.add(verdict.ticket!.id);
      await store.apply({ kind: 'complete', ticket: verdict.ticket!, status: 200, cpuMs: 0 }, T0, config);
    }
    expect(ids.size).toBe(1_100);
  });

  it('reloads its script transparently after SCRIPT FLUSH (NOSCRIPT)', async () => {
    const store = createRedisStore({
      client: redis.client,
      prefix: 'reload:',
      useCallerClock: true,
      timeoutMs: 2_000,
    });
    expect((await store.apply(admitEvent(), T0, config)).allowed).toBe(true);
    await redis.client.script('FLUSH');
    expect((await store.apply(admitEvent(), T0, config)).used).toBe(2);
  });
});

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

  it('keeps one identity in one key, tagged with the identity (the second stored format)', () => {
    const store = createRedisStore({ client: redis.client, prefix: 'p:' });
    expect(store.keysOf('user:octocat')).toEqual(['p:{user:octocat}:v2']);
  });

  it('leaves no key behind once every window has ended (DBSIZE)', async () => {
    const dbsize = () => redis.client.dbsize();
    const store = createRedisStore({ client: redis.client, prefix: 'expiry:', timeoutMs: 2_000 });
    await redis.client.flushall();
    // The server's own clock: a REST read, completed at once, leaves its point in the points log
    // for one points window and a core window of an hour. With windows of one second, nothing
    // outlives a couple of seconds.
    const short = {
      ...config,
      primary: { ...config.primary, windowMs: 1_000 },
      secondary: { ...config.secondary, points: { ...config.secondary.points, windowMs: 1_000 } },
    };
    const admitted = await store.apply(admitEvent({ key: 'user:brief' }), Date.now(), short);
    await store.apply(
      { kind: 'complete', ticket: admitted.ticket!, status: 200, cpuMs: 0 },
      Date.now(),
      short,
    );
    // The state, its one-entry points log packed in it (an empty ticket set is no key).
    expect(await dbsize()).toBe(1);
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

  it('reloads its code transparently after SCRIPT FLUSH and FUNCTION FLUSH', async () => {
    const store = createRedisStore({
      client: redis.client,
      prefix: 'reload:',
      useCallerClock: true,
      timeoutMs: 2_000,
    });
    expect((await store.apply(admitEvent(), T0, config)).allowed).toBe(true);
    await redis.client.script('FLUSH');
    await redis.client.function('FLUSH');
    expect((await store.apply(admitEvent(), T0, config)).used).toBe(2);
  });

  it('keeps the identity as long as a held lease runs, its tickets in its one value', async () => {
    // The server's clock, so expiries are real: a lease of 30 s (the test config).
    const store = createRedisStore({ client: redis.client, prefix: 'lease:', timeoutMs: 2_000 });
    const key = 'user:lease';
    const [valueKey] = store.keysOf(key);
    const first = await store.apply(admitEvent({ key }), Date.now(), config);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const second = await store.apply(admitEvent({ key }), Date.now(), config);
    const holding = await redis.client.strlen(valueKey);
    const completed = await store.apply(
      { kind: 'complete', ticket: first.ticket!, status: 200, cpuMs: 5 },
      Date.now(),
      config,
    );
    expect(completed.allowed).toBe(true);
    // The second ticket is still held: the value outlives its lease (30 s, less the time since),
    // and holds one ticket (16 bytes) fewer.
    expect(await redis.client.pttl(valueKey)).toBeGreaterThan(config.secondary.concurrency.leaseMs - 1_000);
    expect((await store.read(key))?.inFlight).toBe(1);
    expect(await redis.client.strlen(valueKey)).toBeLessThan(holding);
    await store.apply({ kind: 'release', ticket: second.ticket!, cpuMs: 0 }, Date.now(), config);
    expect((await store.read(key))?.inFlight).toBe(0);
    // A copy of a settled ticket settles nothing more.
    const again = await store.apply(
      { kind: 'release', ticket: { ...second.ticket! }, cpuMs: 0 },
      Date.now(),
      config,
    );
    expect((await store.read(key))?.inFlight).toBe(0);
    expect(again.allowed).toBe(true);
  });
});

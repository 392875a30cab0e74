// The Redis store keeps the store contract the memory store keeps, and lets no key outlive its windows.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore } from '../../src/stores/redis-store.js';
import { admitEvent, config, T0 } from '../limits/support.js';
import { REDIS_MISSING, type RunningRedis, redisAvailable, startRedis } from '../support/redis-server.js';
import { limitsStoreContract } from './limits-store.case.js';

const available = redisAvailable();
if (!available && !process.env.CI) console.log(REDIS_MISSING);

describe.runIf(available || process.env.CI)('the Redis store', () => {
  let server: RunningRedis;
  let client: Redis;
  let stores = 0;
  beforeAll(async () => {
    if (!available) throw new Error(REDIS_MISSING);
    server = await startRedis();
    client = new Redis(server.url);
  });
  afterAll(async () => {
    client?.disconnect();
    await server?.stop();
  });

  // Each store its own key prefix: a fresh store, as the contract expects, on one server.
  limitsStoreContract(
    'the Redis store',
    () => createRedisStore({ client, prefix: `contract${stores++}:`, useCallerClock: true }),
    config,
  );

  it('keeps one identity in one hash slot: every key tagged with the identity', () => {
    const store = createRedisStore({ client, prefix: 'p:' });
    expect(store.keysOf('user:octocat')).toEqual(['p:{user:octocat}:s', 'p:{user:octocat}:t']);
  });

  it('leaves no key behind once every window has ended (DBSIZE)', async () => {
    const dbsize = () => client.dbsize();
    const store = createRedisStore({ client, prefix: 'expiry:' });
    await client.flushall();
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
    const store = createRedisStore({ client, prefix: 'ids:', useCallerClock: true });
    const ids = new Set<number>();
    for (let i = 0; i < 1_100; i++) {
      const verdict = await store.apply(admitEvent({ key: 'user:busy', limit: 1e9, cost: 0 }), T0, config);
      ids.add(verdict.ticket!.id);
      await store.apply({ kind: 'complete', ticket: verdict.ticket!, status: 200, cpuMs: 0 }, T0, config);
    }
    expect(ids.size).toBe(1_100);
  });

  it('reloads its script transparently after SCRIPT FLUSH (NOSCRIPT)', async () => {
    const store = createRedisStore({ client, prefix: 'reload:', useCallerClock: true });
    expect((await store.apply(admitEvent(), T0, config)).allowed).toBe(true);
    await client.script('FLUSH');
    expect((await store.apply(admitEvent(), T0, config)).used).toBe(2);
  });
});

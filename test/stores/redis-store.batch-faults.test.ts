// The batch call where it meets trouble or the server's own clock: a batch refused whole fails
// every event of it through the failure mode; a library flushed between batches is loaded again
// and the batch answered in order; a server that refuses keys of several hash slots in one call
// (cluster mode behind a plain client) gets one event to a call; a cold start batches too; and
// each batch reads the server's clock afresh, once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRedisStore, type RedisClientLike } from '../../src/stores/redis-store.js';
import { admitEvent, config, T0 } from '../limits/support.js';
import { runRedisTests, sharedRedis, startRedis } from '../support/redis-server.js';

/** Calls of each command since the last RESETSTAT (INFO commandstats), `function|load` for FUNCTION LOAD. */
async function calls(client: Redis): Promise<Record<string, number>> {
  const info = await client.info('commandstats');
  return Object.fromEntries(
    [...info.matchAll(/cmdstat_([\w|]+):calls=(\d+)/g)].map((m) => [m[1]!, Number(m[2])]),
  );
}

/** `n` admissions of one identity made in one turn. */
const burst = (store: ReturnType<typeof createRedisStore>, key: string, n: number, now: number) =>
  Promise.all(Array.from({ length: n }, () => store.apply(admitEvent({ key, limit: 1_000 }), now, config)));

describe.runIf(runRedisTests)('the Redis store, batch calls under faults and on the server clock', () => {
  const redis = sharedRedis();

  it('fails every event of a batch the server refused whole, through the failure mode, and answers the next batch', async () => {
    let refuse = 0;
    const inner = redis.client;
    // The client as the store sees it, but a batch call may be refused as a connection drop would.
    const client: RedisClientLike = Object.create(inner);
    Object.assign(client, {
      callBuffer: (command: string, ...args: (string | number | Buffer)[]) =>
        command === 'fcall' && String(args[0]).endsWith('_batch') && refuse-- > 0
          ? Promise.reject(new Error('Connection is closed.'))
          : inner.callBuffer(command, ...args),
    });
    const store = createRedisStore({
      client,
      prefix: 'bf-whole:',
      useCallerClock: true,
      timeoutMs: 5_000,
      onFailure: 'fail-closed',
      retryAfterFailureMs: 1,
    });
    await store.apply(admitEvent({ key: 'user:warm' }), T0, config);
    refuse = 1;
    const refused = await burst(store, 'user:u', 5, T0 + 1);
    expect(refused.map((v) => [v.allowed, v.degraded])).toEqual(Array(5).fill([false, 'fail-closed']));
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Redis charged none of them: the next batch starts the count at 1.
    const answered = await burst(store, 'user:u', 3, T0 + 2);
    expect(answered.map((v) => [v.allowed, v.used, v.degraded])).toEqual([
      [true, 1, undefined],
      [true, 2, undefined],
      [true, 3, undefined],
    ]);
    await store.close();
  });

  it('loads the library again when a batch finds it flushed, then answers the batch in order', async () => {
    const store = createRedisStore({
      client: redis.client,
      prefix: 'bf-flush:',
      useCallerClock: true,
      timeoutMs: 5_000,
    });
    await store.apply(admitEvent({ key: 'user:warm' }), T0, config);
    await redis.client.function('FLUSH');
    await redis.client.config('RESETSTAT');
    const verdicts = await burst(store, 'user:u', 20, T0 + 1);
    expect(verdicts.map((v) => v.degraded)).toEqual(Array(20).fill(undefined));
    expect(verdicts.map((v) => v.used)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const counted = await calls(redis.client);
    expect(counted['function|load']).toBe(1);
    // Two batches (16 and 4), each refused once before the load.
    expect(counted.fcall).toBe(4);
  });

  it('batches the admissions of a cold start too: made together before the clock was read and the library loaded', async () => {
    await redis.client.function('FLUSH');
    await redis.client.config('RESETSTAT');
    // A new store: it has not read the server's clock, so every admission waits for that reading.
    const store = createRedisStore({ client: redis.client, prefix: 'bf-cold:', timeoutMs: 5_000 });
    const verdicts = await burst(store, 'user:u', 40, Date.now());
    expect(verdicts.map((v) => [v.used, v.degraded])).toEqual(
      Array.from({ length: 40 }, (_, i) => [i + 1, undefined]),
    );
    const counted = await calls(redis.client);
    expect(counted['function|load']).toBe(1);
    // Three batches (16, 16 and 8), each refused once before the load (one event to a call: 80).
    expect(counted.fcall).toBe(6);
    await store.close();
  });

  it("sends a cold start's admissions whose clock reading came back just as the timeout's check was due", async () => {
    const inner = redis.client;
    await inner.ping(); // connected: only the clock reading is waited for
    // TIME answered after exactly the timeout: its reply and the watch's timer land in one pass.
    // (A timeout of 1 s: the calls, sent then, have as long again to be answered on a busy machine.)
    // The reading is this host's clock, which is the local redis-server's.
    const client: RedisClientLike = Object.create(inner);
    Object.assign(client, {
      time: () =>
        new Promise((resolve) =>
          setTimeout(() => {
            const now = Date.now();
            resolve([String(Math.floor(now / 1000)), String((now % 1000) * 1000)]);
          }, 1_000),
        ),
    });
    const stores = Array.from({ length: 5 }, (_, i) =>
      createRedisStore({ client, prefix: `bf-due${i}:`, timeoutMs: 1_000, retryAfterFailureMs: 60_000 }),
    );
    const verdicts = await Promise.all(
      stores.flatMap((store) =>
        [0, 1].map(() => store.apply(admitEvent({ key: 'user:u' }), Date.now(), config)),
      ),
    );
    // Each call is timed from the reading, so it goes to Redis (none failed before it went out).
    expect(verdicts.map((v) => v.degraded ?? 'redis')).toEqual(Array(10).fill('redis'));
    await Promise.all(stores.map((store) => store.close()));
  });

  it('fails an event alone for its own error, alone or anywhere in a batch, and a status read too: the store pauses nothing', async () => {
    // A key holding a list (WRONGTYPE), and one holding text the script cannot read (a Lua error).
    await redis.client.rpush('bf-own:{user:bad}:v2', 'not a state');
    await redis.client.set('bf-own:{user:junk}:v2', 'garbage');
    for (const order of [['user:bad'], ['user:junk'], ['user:bad', 'user:good'], ['user:good', 'user:bad']]) {
      const store = createRedisStore({
        client: redis.client,
        prefix: 'bf-own:',
        useCallerClock: true,
        timeoutMs: 5_000,
        retryAfterFailureMs: 60_000,
      });
      await store.apply(admitEvent({ key: 'user:warm' }), T0, config);
      const verdicts = await Promise.all(order.map((key) => store.apply(admitEvent({ key }), T0, config)));
      expect(verdicts.map((v) => v.degraded ?? 'redis')).toEqual(
        order.map((key) => (key === 'user:good' ? 'redis' : 'fail-closed')),
      );
      // Another identity is still decided by Redis: one bad key paused nobody.
      expect((await store.apply(admitEvent({ key: 'user:other' }), T0, config)).degraded).toBeUndefined();
      await store.close();
    }
    const store = createRedisStore({ client: redis.client, prefix: 'bf-own:', retryAfterFailureMs: 60_000 });
    await expect(store.read('user:bad')).rejects.toThrow(/failed or did not answer/);
    expect(
      (await store.apply(admitEvent({ key: 'user:other2' }), Date.now(), config)).degraded,
    ).toBeUndefined();
    await store.close();
    // By script (a client without functions: EVALSHA), the same.
    const inner = redis.client;
    const scripts = createRedisStore({
      client: {
        get status() {
          return inner.status;
        },
        callBuffer: (command, ...args) => inner.callBuffer(command, ...args),
        getBuffer: (key) => inner.getBuffer(key),
        del: (...keys) => inner.del(...keys),
      },
      prefix: 'bf-own:',
      useCallerClock: true,
      retryAfterFailureMs: 60_000,
    });
    expect((await scripts.apply(admitEvent({ key: 'user:junk' }), T0, config)).degraded).toBe('fail-closed');
    expect((await scripts.apply(admitEvent({ key: 'user:other3' }), T0, config)).degraded).toBeUndefined();
    await scripts.close();
  });

  it('sends one event to a call to a server that refuses keys of several slots in one call (CROSSSLOT)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-one-node-cluster-'));
    const server = await startRedis([
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      join(dir, 'nodes.conf'),
      '--dir',
      dir,
    ]);
    // A plain client: it has a socket, so the store batches its calls until the server refuses.
    const client = new Redis(server.url);
    try {
      await client.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
      for (let i = 0; i < 100; i++) {
        if (String(await client.call('CLUSTER', 'INFO')).includes('cluster_state:ok')) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const store = createRedisStore({ client, useCallerClock: true, timeoutMs: 5_000 });
      await store.apply(admitEvent({ key: 'user:warm' }), T0, config);
      const admitMany = () =>
        Promise.all(
          Array.from({ length: 8 }, (_, i) => store.apply(admitEvent({ key: `user:${i}` }), T0, config)),
        );
      const first = await admitMany();
      expect(first.map((v) => [v.allowed, v.degraded])).toEqual(Array(8).fill([true, undefined]));
      await client.config('RESETSTAT');
      const second = await admitMany();
      expect(second.map((v) => [v.allowed, v.used])).toEqual(Array(8).fill([true, 2]));
      // From the refusal on, one event to a call: no batch is tried again.
      const counted = await calls(client);
      expect(counted.fcall).toBe(8);
      expect(counted.failed_calls ?? 0).toBe(0);
    } finally {
      client.disconnect();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads the server's clock once per batch, and afresh for each batch", async () => {
    const store = createRedisStore({ client: redis.client, prefix: 'bf-clock:', timeoutMs: 5_000 });
    await store.apply(admitEvent({ key: 'user:warm' }), Date.now(), config);
    await redis.client.config('RESETSTAT');
    const first = await burst(store, 'user:u', 10, Date.now());
    const counted = await calls(redis.client);
    expect(counted.fcall).toBe(1);
    expect(counted.time).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const second = await burst(store, 'user:u', 10, Date.now());
    // Ticket ids are the admission's time in ms times 1,024 (then counted up within one ms).
    const ms = (v: (typeof first)[number]) => Math.floor(v.ticket!.id / 1024);
    expect(ms(second[0]!) - ms(first[0]!)).toBeGreaterThanOrEqual(1_000);
    expect(new Set(first.map(ms)).size).toBe(1);
  });
});

// Every Redis fault path of issue 18 (item 8), against a real redis-server: the status read obeys
// the timeout and the mode, a refused admission is charged nothing, a full Redis refuses, a store
// still connecting waits, a busy event loop is not a timeout, close() settles what is in flight.
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createGate } from '../../src/gate/create-gate.js';
import { createLimiter } from '../../src/limiter/create-limiter.js';
import { defaultLimits } from '../../src/limits/default-limits.js';
import type { AdmitEvent } from '../../src/limits/limit-event.js';
import type { LimitsConfig } from '../../src/limits/limits-config.js';
import { createRedisStore, type RedisStoreOptions } from '../../src/stores/redis-store.js';
import { requireRedis, runRedisTests, startRedis } from '../support/redis-server.js';

const shipped = defaultLimits();
const config: LimitsConfig = {
  ...shipped,
  primary: {
    ...shipped.primary,
    callers: { ...shipped.primary.callers, user: { ...shipped.primary.callers.user, limit: 100 } },
  },
};
const admitEvent = (key: string): AdmitEvent => ({
  kind: 'admit',
  key,
  resource: 'core',
  limit: 100,
  cost: 1,
  content: false,
  graphql: false,
  countsPrimary: true,
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(runRedisTests)('the Redis store on every fault path', () => {
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function server(extra: string[] = []) {
    requireRedis();
    const redis = await startRedis(extra);
    cleanups.push(() => redis.stop());
    const connect = () => {
      const client = new Redis({ port: redis.port, host: '127.0.0.1', retryStrategy: () => 20 });
      client.on('error', () => {});
      cleanups.push(() => client.disconnect());
      return client;
    };
    return { redis, connect };
  }
  const ready = (client: Redis) =>
    new Promise<void>((resolve) =>
      client.status === 'ready' ? resolve() : client.once('ready', () => resolve()),
    );

  for (const onFailure of ['fallback', 'fail-open', 'fail-closed'] as const) {
    it(`${onFailure}: the status read (GET /rate_limit) obeys timeoutMs while Redis is stalled`, async () => {
      const { connect } = await server();
      const client = connect();
      const store = createRedisStore({ client, timeoutMs: 50, onFailure });
      await ready(client);
      const admitted = await store.apply(admitEvent('user:reader'), Date.now(), config);
      expect(admitted.degraded).toBeUndefined();
      const pauser = connect();
      await pauser.client('PAUSE', 1500, 'ALL');
      const started = performance.now();
      const read = store.read('user:reader').then(
        (state) => ({ state }),
        (error: { code: string }) => ({ error: error.code }),
      );
      const outcome = await read;
      expect(performance.now() - started).toBeLessThan(1000);
      if (onFailure === 'fail-closed') expect(outcome).toEqual({ error: 'TOLLGATE_STORE_UNAVAILABLE' });
      // fallback: the local store's view (it decided nothing yet); fail-open: nothing known.
      else expect(outcome).toEqual({ state: undefined });
    });
  }

  it('answers GET /rate_limit with 503 through the gate when a fail-closed store cannot tell, freeing the slot', async () => {
    const { connect } = await server();
    const client = connect();
    const pauser = connect();
    const redisStore = createRedisStore({
      client,
      timeoutMs: 50,
      onFailure: 'fail-closed',
      retryAfterFailureMs: 0,
    });
    await ready(client);
    await ready(pauser);
    // Redis stalls between the admission and the status read (the moment this wrapper picks).
    const store = {
      ...redisStore,
      read: async (key: string) => {
        await pauser.client('PAUSE', 800, 'ALL');
        return redisStore.read(key);
      },
    };
    const limiter = createLimiter({ store });
    const gate = createGate({
      limiter,
      lookupToken: () => ({ kind: 'classic', scopes: [], user: 'octocat' }),
    });
    const facts = {
      method: 'GET',
      target: '/rate_limit',
      header: (name: string) => (name === 'authorization' ? 'Bearer t' : undefined),
    };
    const started = performance.now();
    const answer = await gate.check(facts);
    expect(performance.now() - started).toBeLessThan(600);
    expect(answer).toMatchObject({ action: 'respond', status: 503, reason: 'store_unavailable' });
    // The admission's slot was settled: once Redis resumes, nothing is in flight.
    await sleep(900);
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    await expect.poll(async () => (await redisStore.read(identity.key))?.inFlight, { timeout: 3000 }).toBe(0);
  });

  it('charges nothing for admissions refused while Redis stalled, though their scripts run once it resumes', async () => {
    const { connect } = await server();
    const client = connect();
    const pauser = connect();
    const store = createRedisStore({
      client,
      timeoutMs: 50,
      onFailure: 'fail-closed',
      retryAfterFailureMs: 0,
    });
    await ready(pauser);
    // One admission first: the store has measured the server's clock.
    expect((await store.apply(admitEvent('user:stalled'), Date.now(), config)).allowed).toBe(true);
    await pauser.client('PAUSE', 1000, 'ALL');
    const refused = await Promise.all(
      Array.from({ length: 40 }, () => store.apply(admitEvent('user:stalled'), Date.now(), config)),
    );
    expect(refused.every((v) => v.status === 503 && v.degraded === 'fail-closed')).toBe(true);
    await sleep(1200);
    // Every script ran by now (Redis answers in order): the state holds the first admission only.
    await client.ping();
    const state = await store.read('user:stalled');
    expect(state).toMatchObject({ coreUsed: 1, inFlight: 1 });
    // Nor points: one GET's point at most is still spent (in point-milliseconds, 1 x 60,000).
    expect(state!.restPoints).toBeLessThanOrEqual(60_000);
  });

  it('refuses per the failure mode when Redis is full (maxmemory, noeviction) instead of writing past it', async () => {
    const { connect } = await server(['--maxmemory-policy', 'noeviction']);
    const client = connect();
    await ready(client);
    const closed = createRedisStore({
      client,
      timeoutMs: 500,
      onFailure: 'fail-closed',
      retryAfterFailureMs: 0,
    });
    const fallback = createRedisStore({
      client,
      timeoutMs: 500,
      onFailure: 'fallback',
      retryAfterFailureMs: 0,
    });
    expect((await closed.apply(admitEvent('user:before'), Date.now(), config)).allowed).toBe(true);
    // Full: a cap of one byte, below anything Redis uses. (A cap just under the memory used at one
    // moment was flaky under load: used memory moves as client buffers shrink, and the cap could
    // end up above it.)
    await client.config('SET', 'maxmemory', '1');
    const keys = await client.dbsize();
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => closed.apply(admitEvent(`user:new${i}`), Date.now(), config)),
    );
    expect(answers.every((v) => v.status === 503 && v.degraded === 'fail-closed')).toBe(true);
    const local = await fallback.apply(admitEvent('user:new0'), Date.now(), config);
    expect(local).toMatchObject({ allowed: true, degraded: 'fallback' });
    expect(await client.dbsize()).toBe(keys);
    await client.config('SET', 'maxmemory', '0');
    expect((await closed.apply(admitEvent('user:after'), Date.now(), config)).degraded).toBeUndefined();
  });

  it('three fresh instances in fallback wait for their connections: 100 admitted where the limit is 100', async () => {
    const { connect } = await server();
    // Fresh clients, still connecting when the first requests come.
    const clients = [0, 1, 2].map(() => connect());
    const stores = clients.map((client) =>
      createRedisStore({ client, timeoutMs: 2000, onFailure: 'fallback', fallbackShare: 1 }),
    );
    const baseline = clients.map((client) => client.listenerCount('ready'));
    const pending = Array.from({ length: 150 }, (_, i) =>
      stores[i % 3]!.apply(admitEvent('user:shared'), Date.now(), config),
    );
    // 50 admissions wait on each connection through one listener (ioredis warns past ten).
    expect(clients.map((client, i) => client.listenerCount('ready') - baseline[i]!)).toEqual([1, 1, 1]);
    const verdicts = await Promise.all(pending);
    expect(verdicts.filter((v) => v.degraded !== undefined)).toEqual([]);
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(100);
  });

  it('uses a reply that arrived, however late a busy event loop ran the timer: no 503 from a healthy Redis', async () => {
    const { connect } = await server();
    const client = connect();
    const store = createRedisStore({ client, timeoutMs: 100, onFailure: 'fail-closed' });
    await ready(client);
    await store.apply(admitEvent('user:warm'), Date.now(), config);
    const verdicts: string[] = [];
    const until = performance.now() + 1200;
    let i = 0;
    // The loop is saturated: each turn, admissions are sent, then 250 ms of work (2.5 timeouts)
    // blocks the loop while Redis answers at once.
    while (performance.now() < until) {
      const batch = Array.from({ length: 20 }, () =>
        store.apply(admitEvent(`user:busy${i++ % 50}`), Date.now(), config).then((v) => {
          verdicts.push(v.degraded ?? 'redis');
        }),
      );
      const blockedUntil = performance.now() + 250;
      while (performance.now() < blockedUntil);
      await Promise.all(batch);
    }
    expect(verdicts.length).toBeGreaterThanOrEqual(60);
    expect(verdicts.filter((v) => v !== 'redis')).toEqual([]);
  });

  it('close() releases what is in flight and sends what Redis missed before the connection goes: no slot waits out its lease', async () => {
    const { connect } = await server();
    const client = connect();
    const limiter = createLimiter({ store: createRedisStore({ client, timeoutMs: 500 }) });
    const gate = createGate({
      limiter,
      lookupToken: () => ({ kind: 'classic', scopes: [], user: 'octocat' }),
    });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    const held = await Promise.all(
      Array.from({ length: 5 }, () => limiter.admit({ identity, method: 'GET' })),
    );
    expect(held.every((v) => v.allowed)).toBe(true);
    expect((await limiter.inspect(identity)).state?.inFlight).toBe(5);
    await gate.close();
    await client.quit();
    const reader = connect();
    expect((await createRedisStore({ client: reader }).read(identity.key))?.inFlight).toBe(0);
    await expect(limiter.admit({ identity, method: 'GET' })).rejects.toMatchObject({
      code: 'TOLLGATE_STORE_UNAVAILABLE',
    });
    // A request finishing after close settles nothing more and does not throw.
    expect((await limiter.complete(held[0]!.ticket!, { status: 200 })).allowed).toBe(true);
  });

  it('refuses a retryAfterFailureMs, timeoutMs or fallbackShare it cannot use, naming it', () => {
    const client = new Redis({ lazyConnect: true });
    const bad: Partial<RedisStoreOptions>[] = [
      { retryAfterFailureMs: 'x' as never },
      { retryAfterFailureMs: Number.NaN },
      { timeoutMs: 0 },
      { fallbackShare: 0 },
      { fallbackShare: 1.5 },
    ];
    for (const options of bad)
      expect(() => createRedisStore({ client, ...options })).toThrow(
        new RegExp(`\`${Object.keys(options)[0]}\``),
      );
    expect(() => createRedisStore({ client: null as never })).toThrow(/`client`/);
  });

  it('fallback: each instance enforces the whole limit, or its fallbackShare of it', async () => {
    const { connect } = await server();
    const clients = [connect(), connect()];
    const whole = createRedisStore({ client: clients[0]!, timeoutMs: 50, onFailure: 'fallback' });
    const half = createRedisStore({
      client: clients[1]!,
      timeoutMs: 50,
      onFailure: 'fallback',
      fallbackShare: 0.5,
    });
    // Redis out of reach for both (their connections ended).
    for (const client of clients) client.disconnect();
    const admitted = async (store: typeof whole) => {
      let allowed = 0;
      for (let i = 0; i < 120; i++) {
        const verdict = await store.apply(admitEvent('user:alone'), Date.now(), config);
        expect(verdict.degraded).toBe('fallback');
        if (verdict.allowed) allowed++;
      }
      return allowed;
    };
    // 100 in flight at most (the concurrency ceiling) and 100 an hour: all of it, or half.
    expect(await admitted(whole)).toBe(100);
    expect(await admitted(half)).toBe(50);
  });
});

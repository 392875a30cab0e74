// Scenario "redis": tollgate's Redis store on a local redis-server started for the run, beside
// rate-limiter-flexible's RateLimiterRedis.consume (one bucket) and raw ioredis PING, with 1 and
// 64 requests in flight; round trips per admission (INFO commandstats); bytes per identity.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { defaultLimits } from '../dist/limits.js';
import { createRedisStore } from '../dist/redis.js';

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function startRedis() {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => 20 });
  client.on('error', () => {});
  for (let i = 0; i < 100; i++) {
    try {
      await client.connect();
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const stop = () => {
    client.disconnect();
    child.kill('SIGKILL');
  };
  return { client, stop };
}

/** Operations per second of `op` with `inFlight` concurrent loops for `ms`. */
async function rate(op, inFlight, ms = 1500) {
  const until = performance.now() + ms;
  let done = 0;
  const loop = async (worker) => {
    for (let i = 0; performance.now() < until; i++) {
      await op(worker, i);
      done++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, (_, worker) => loop(worker)));
  return Math.round((done * 1000) / (performance.now() - started));
}

async function commandCalls(client, names) {
  const info = await client.info('commandstats');
  let total = 0;
  for (const name of names) total += Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(info)?.[1] ?? 0);
  return total;
}

export async function runRedisBench() {
  if (spawnSync('redis-server', ['--version']).status !== 0)
    return { skipped: 'redis-server is not installed' };
  const { client, stop } = await startRedis();
  try {
    const shipped = defaultLimits();
    // Numbers no run reaches, so every admission is checked against every bucket and admitted.
    const config = {
      ...shipped,
      primary: {
        ...shipped.primary,
        callers: { ...shipped.primary.callers, user: { ...shipped.primary.callers.user, limit: 1e12 } },
      },
      secondary: {
        ...shipped.secondary,
        concurrency: { ...shipped.secondary.concurrency, limit: 1e9 },
        points: { ...shipped.secondary.points, rest: 1e12 },
      },
    };
    const store = createRedisStore({ client, timeoutMs: 1000 });
    let admitted = 0;
    const admit = (worker, i) => {
      admitted++;
      return store.apply(
        {
          kind: 'admit',
          key: `user:u${(worker * 7919 + i) % 10_000}`,
          resource: 'core',
          limit: 1e12,
          cost: 1,
          content: false,
          graphql: false,
          countsPrimary: true,
        },
        Date.now(),
        config,
      );
    };
    const rlf = new RateLimiterRedis({ storeClient: client, points: 1e12, duration: 3600, keyPrefix: 'rlf' });
    const consume = (worker, i) => rlf.consume(`u${(worker * 7919 + i) % 10_000}`, 1);
    const ping = () => client.ping();
    await rate(admit, 8, 300); // warm: the script is loaded, connections settled
    // The client's own commands: a script's inner commands are counted in commandstats too, but
    // run inside Redis, not as round trips.
    const before = await commandCalls(client, ['evalsha', 'eval']);
    admitted = 0;
    const admissions = { 1: await rate(admit, 1), 64: await rate(admit, 64) };
    const after = await commandCalls(client, ['evalsha', 'eval']);
    const counted = admitted;
    const results = {
      'tollgate admit (every bucket)': admissions,
      'rate-limiter-flexible RateLimiterRedis.consume (one bucket)': {
        1: await rate(consume, 1),
        64: await rate(consume, 64),
      },
      'ioredis PING': { 1: await rate(ping, 1), 64: await rate(ping, 64) },
    };
    // Commands the client sent per admission (the script's own commands run inside Redis).
    const roundTrips = Number(((after - before) / counted).toFixed(2));
    // Bytes in Redis per identity after one request, completed: its keys' MEMORY USAGE.
    await client.flushall();
    const fresh = createRedisStore({ client, timeoutMs: 1000 });
    let bytes = 0;
    for (let i = 0; i < 200; i++) {
      const key = `user:memory${i}`;
      const v = await fresh.apply(
        {
          kind: 'admit',
          key,
          resource: 'core',
          limit: 5000,
          cost: 1,
          content: false,
          graphql: false,
          countsPrimary: true,
        },
        Date.now(),
        shipped,
      );
      await fresh.apply({ kind: 'complete', ticket: v.ticket, status: 200, cpuMs: 3 }, Date.now(), shipped);
      for (const k of fresh.keysOf(key)) bytes += (await client.memory('USAGE', k)) ?? 0;
    }
    const { redisBytes } = await import(new URL('./busy-identity.mjs', import.meta.url).href);
    const perIdentity = await redisBytes(client, createRedisStore, shipped, 100_000);
    const ratio = (a, b) => Number((a / b).toFixed(2));
    const tollgate = results['tollgate admit (every bucket)'];
    const peer = results['rate-limiter-flexible RateLimiterRedis.consume (one bucket)'];
    const pings = results['ioredis PING'];
    return {
      results,
      roundTripsPerAdmission: roundTrips,
      bytesPerIdentity: Math.round(bytes / 200),
      idleBytesPerIdentity: perIdentity.idle,
      busyBytesPerIdentity: perIdentity.busy,
      ratios: {
        'tollgate / rate-limiter-flexible, 1 in flight': ratio(tollgate[1], peer[1]),
        'tollgate / rate-limiter-flexible, 64 in flight': ratio(tollgate[64], peer[64]),
        'tollgate / PING, 64 in flight': ratio(tollgate[64], pings[64]),
      },
    };
  } finally {
    stop();
  }
}

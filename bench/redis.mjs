// Scenario "redis": tollgate's Redis store on a local redis-server started for the run, beside
// rate-limiter-flexible's RateLimiterRedis.consume (one bucket) and raw ioredis PING, with 1 and
// 64 requests in flight over 10,000 identities: admissions alone, and whole requests (admit, then
// complete). BENCH_RUNS runs (default 5), interleaved; each ratio per run (ratioRuns) for
// min / median / max beside its target. Round trips per admission (INFO commandstats); bytes per identity.
// Diagnostics (labelled, no target): a floor function (TIME + GET + SET of a state-sized blob,
// the least a one-round-trip admission on the server's clock does) beside consume and PING, and
// each op's µs in this process and inside Redis.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { defaultLimits } from '../dist/limits.js';
import { createRedisStore } from '../dist/redis.js';
import { commandStats, FLOOR_LIBRARY, serverMicros } from './redis-diagnostics.mjs';

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

export async function startRedis() {
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

const IDENTITIES = 10_000;
/** The identity (0 to IDENTITIES - 1) of loop `worker`'s `i`-th op: the loops spread over all of them. */
const identityOf = (worker, i) => (worker * 7919 + i) % IDENTITIES;

/** The shipped limits with numbers no run reaches, so every admission is checked against every bucket and admitted. */
export function roomyLimits(shipped) {
  return {
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
}

/**
 * The scenario's two tollgate ops over IDENTITIES identities, `(worker, i) => Promise`: an
 * admission alone (it holds its ticket, a lease each) and a whole request (admit, then complete),
 * on identities of their own.
 */
export function tollgateOps(store, config) {
  const admitEvent = (key) => ({
    kind: 'admit',
    key,
    resource: 'core',
    limit: 1e12,
    cost: 1,
    content: false,
    graphql: false,
    countsPrimary: true,
  });
  const admit = (worker, i) => store.apply(admitEvent(`user:a${identityOf(worker, i)}`), Date.now(), config);
  const whole = async (worker, i) => {
    const verdict = await store.apply(admitEvent(`user:w${identityOf(worker, i)}`), Date.now(), config);
    await store.apply(
      { kind: 'complete', ticket: verdict.ticket, status: 200, cpuMs: 3 },
      Date.now(),
      config,
    );
  };
  return { admit, whole };
}

/** Operations per second of `op` with `inFlight` concurrent loops for `ms`; `cost` gets this process's CPU µs per op. */
export async function rate(op, inFlight, ms, cost) {
  const until = performance.now() + ms;
  let done = 0;
  const loop = async (worker) => {
    for (let i = 0; performance.now() < until; i++) {
      await op(worker, i);
      done++;
    }
  };
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(Array.from({ length: inFlight }, (_, worker) => loop(worker)));
  const used = process.cpuUsage(cpu);
  cost?.((used.user + used.system) / done, done);
  return Math.round((done * 1000) / (performance.now() - started));
}

export async function runRedisBench({ runs = Number(process.env.BENCH_RUNS ?? 5), ms = 1000 } = {}) {
  if (spawnSync('redis-server', ['--version']).status !== 0)
    return { skipped: 'redis-server is not installed' };
  const { client, stop } = await startRedis();
  try {
    const shipped = defaultLimits();
    const config = roomyLimits(shipped);
    const store = createRedisStore({ client, timeoutMs: 1000 });
    const { admit, whole } = tollgateOps(store, config);
    const rlf = new RateLimiterRedis({ storeClient: client, points: 1e12, duration: 3600, keyPrefix: 'rlf' });
    const consume = (worker, i) => rlf.consume(`u${identityOf(worker, i)}`, 1);
    const ping = () => client.ping();
    await client.function('LOAD', 'REPLACE', FLOOR_LIBRARY);
    // The blob: as long as an identity's state after the warm-up (measured below, before the runs).
    let floorBytes = 128;
    const floor = (worker, i) =>
      client.fcall('tollgate_bench_floor', 1, `floor:{u${identityOf(worker, i)}}`, floorBytes);
    const ops = { admit, whole, consume, ping, floor };
    // Warm: the scripts loaded, connections settled, the code optimised.
    for (const op of Object.values(ops)) await rate(op, 8, 300);
    // The client's own commands per admission: a script's inner commands are counted in
    // commandstats too, but run inside Redis, not as round trips.
    let admitted = 0;
    const counted = (worker, i) => {
      admitted++;
      return admit(worker, i);
    };
    // Calls per admission: with one admission in flight, each is its own call, so this is its round
    // trips (the target: exactly one); with 64, the calls of one turn go as one batch call, so far
    // fewer calls than admissions (each admission still waits for one reply).
    const callsPerAdmission = async (inFlight) => {
      admitted = 0;
      const before = (await commandStats(client, ['fcall', 'evalsha', 'eval'])).calls;
      await rate(counted, inFlight, 300);
      const after = (await commandStats(client, ['fcall', 'evalsha', 'eval'])).calls;
      return Number(((after - before) / admitted).toFixed(2));
    };
    const roundTrips = await callsPerAdmission(1);
    const callsAt64 = await callsPerAdmission(64);
    // The floor's blob: the mean length of the admitted identities' values (state, logs, tickets).
    let stateBytes = 0;
    for (let i = 0; i < 100; i++)
      for (const key of store.keysOf(`user:a${i}`))
        stateBytes += Number(await client.strlen(key).catch(() => 0));
    floorBytes = Math.max(16, Math.round(stateBytes / 100));
    // Runs interleaved: each run measures every task at 1 and 64 in flight, in an order that
    // rotates from run to run, so load that comes and goes is shared out. Beside each rate: this
    // process's CPU µs per op, and Redis's (its time in the op's top-level command).
    const names = Object.keys(ops);
    const perRun = [];
    const clientMicros = Object.fromEntries(names.map((name) => [name, { 1: [], 64: [] }]));
    const redisMicros = Object.fromEntries(names.map((name) => [name, { 1: [], 64: [] }]));
    for (let run = 0; run < runs; run++) {
      const figures = Object.fromEntries(names.map((name) => [name, {}]));
      for (const inFlight of [1, 64])
        for (let k = 0; k < names.length; k++) {
          const name = names[(k + run) % names.length];
          await client.config('RESETSTAT');
          let done = 1;
          figures[name][inFlight] = await rate(ops[name], inFlight, ms, (us, count) => {
            clientMicros[name][inFlight].push(us);
            done = Math.max(1, count);
          });
          // Per op (a whole request is two calls).
          redisMicros[name][inFlight].push((await serverMicros(client)) / done);
        }
      perRun.push(figures);
    }
    const ratio = (a, b) => Number((a / b).toFixed(2));
    const ratioRuns = {
      'Redis admission / RateLimiterRedis.consume, 1 in flight': perRun.map((f) =>
        ratio(f.admit[1], f.consume[1]),
      ),
      'Redis admission / RateLimiterRedis.consume, 64 in flight': perRun.map((f) =>
        ratio(f.admit[64], f.consume[64]),
      ),
      'Redis whole request / consume, 1 in flight': perRun.map((f) => ratio(f.whole[1], f.consume[1])),
      'Redis whole request / consume, 64 in flight': perRun.map((f) => ratio(f.whole[64], f.consume[64])),
      'Redis admission / PING, 64 in flight': perRun.map((f) => ratio(f.admit[64], f.ping[64])),
      // Diagnostics (no target): the floor of any one-round-trip admission on the server's clock,
      // measured the same way; how far tollgate's admission is above it.
      'diagnostic: floor (TIME+GET+SET function) / consume, 1 in flight': perRun.map((f) =>
        ratio(f.floor[1], f.consume[1]),
      ),
      'diagnostic: floor (TIME+GET+SET function) / consume, 64 in flight': perRun.map((f) =>
        ratio(f.floor[64], f.consume[64]),
      ),
      'diagnostic: floor (TIME+GET+SET function) / PING, 64 in flight': perRun.map((f) =>
        ratio(f.floor[64], f.ping[64]),
      ),
      'diagnostic: Redis admission / floor, 1 in flight': perRun.map((f) => ratio(f.admit[1], f.floor[1])),
      'diagnostic: Redis admission / floor, 64 in flight': perRun.map((f) => ratio(f.admit[64], f.floor[64])),
    };
    const targets = {
      'Redis admission / RateLimiterRedis.consume, 1 in flight': { atLeast: 1 },
      'Redis admission / RateLimiterRedis.consume, 64 in flight': { atLeast: 1 },
      'Redis whole request / consume, 1 in flight': { atLeast: 0.8 },
      'Redis whole request / consume, 64 in flight': { atLeast: 0.8 },
      'Redis admission / PING, 64 in flight': { atLeast: 0.5 },
    };
    const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
    const micros = (table) =>
      Object.fromEntries(
        names.map((name) => [
          label[name],
          { 1: Number(median(table[name][1]).toFixed(1)), 64: Number(median(table[name][64]).toFixed(1)) },
        ]),
      );
    const label = {
      admit: 'tollgate admit (every bucket)',
      whole: 'tollgate admit + complete (every bucket)',
      consume: 'rate-limiter-flexible RateLimiterRedis.consume (one bucket)',
      ping: 'ioredis PING',
      floor: 'diagnostic: floor, a function doing TIME + GET + SET of the state',
    };
    // ops/s: the median of the runs.
    const results = Object.fromEntries(
      names.map((name) => [
        label[name],
        { 1: median(perRun.map((f) => f[name][1])), 64: median(perRun.map((f) => f[name][64])) },
      ]),
    );
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
    const clientMicrosPerOp = micros(clientMicros);
    const redisMicrosPerOp = micros(redisMicros);
    console.log('\n== redis diagnostics: µs per op, median of the runs (1 / 64 in flight) ==');
    console.log(`${'op'.padEnd(66)} node process   inside Redis`);
    for (const name of names)
      console.log(
        `${label[name].padEnd(66)} ${clientMicrosPerOp[label[name]][1]} / ${clientMicrosPerOp[label[name]][64]}`.padEnd(
          82,
        ) + `${redisMicrosPerOp[label[name]][1]} / ${redisMicrosPerOp[label[name]][64]}`,
      );
    console.log(`(the floor's blob: ${floorBytes} bytes, the mean length of an admitted identity's value)`);
    return {
      results,
      ratioRuns,
      targets,
      // The medians, for a report that reads one figure per ratio.
      ratios: Object.fromEntries(Object.entries(ratioRuns).map(([name, values]) => [name, median(values)])),
      roundTripsPerAdmission: roundTrips,
      callsPerAdmissionAt64: callsAt64,
      // Diagnostics: µs per op (median of the runs) in this node process (ioredis and the store)
      // and inside Redis (INFO commandstats), at 1 and 64 in flight; the floor's blob length.
      clientMicrosPerOp,
      redisMicrosPerOp,
      floorBytes,
      bytesPerIdentity: Math.round(bytes / 200),
      idleBytesPerIdentity: perIdentity.idle,
      busyBytesPerIdentity: perIdentity.busy,
    };
  } finally {
    stop();
  }
}

// An identity busy at every ceiling at once, for the memory figures of both stores: within the
// last 60 s of an hour, 900 REST points (80 of them content requests) and 2,000 GraphQL points,
// each at its own millisecond (the most entries a log can hold), 500 content requests in the
// hour, and a CPU charge in every second of the last 61 (REST and GraphQL CPU logs full).

const HOUR = 3_600_000;

/**
 * The events, in time order, as [time offset in ms, event]: admissions, each completed at once.
 * @param {string} key
 */
export function busyEvents(key) {
  const admit = (overrides) => ({
    kind: 'admit',
    key,
    resource: 'core',
    limit: 1_000_000,
    cost: 1,
    content: false,
    graphql: false,
    countsPrimary: true,
    ...overrides,
  });
  /** @type {[number, object, number][]} time, admit event, CPU ms charged on completion */
  const events = [];
  // 420 content requests over the first 58 minutes, 80 in the last minute: 500 in the hour.
  for (let i = 0; i < 420; i++) events.push([i * 8_000, admit({ content: true }), 0]);
  const last = HOUR - 60_000 + 1;
  for (let i = 0; i < 900; i++) events.push([last + i * 60, admit({ content: i < 80 }), 0]);
  for (let i = 0; i < 2_000; i++)
    events.push([last + i * 29 + 7, admit({ resource: 'graphql', graphql: true }), 0]);
  // One GraphQL request completing with 1 ms of CPU in each of the last 62 seconds.
  for (let s = 0; s < 62; s++)
    events.push([HOUR - 62_000 + s * 1000 + 500, admit({ resource: 'graphql', graphql: true, cost: 0 }), 1]);
  return events.sort((a, b) => a[0] - b[0]);
}

/**
 * Drives `apply(event, now)` (a store's) through busyEvents from `t0`; returns the last time.
 * @param {(event: object, now: number) => unknown} apply
 */
export async function driveBusy(apply, key, t0) {
  let now = t0;
  for (const [offset, event, cpuMs] of busyEvents(key)) {
    now = t0 + offset;
    const verdict = await apply(event, now);
    if (!verdict.allowed) throw new Error(`busy identity refused at ${offset} ms: ${verdict.rule}`);
    await apply({ kind: 'complete', ticket: verdict.ticket, status: 200, cpuMs }, now);
  }
  return now;
}

/**
 * Bytes per busy identity in the memory store (busyEvents; the idle figure is bench/limits.mjs's
 * measureMemory), as heap and array buffers grow over 99 of them (run node with --expose-gc).
 * @param {{ createMemoryStore: Function, defaultLimits: Function }} lib
 */
export async function memoryStoreBytes(lib) {
  if (typeof globalThis.gc !== 'function') return { busy: null, note: 'run node with --expose-gc' };
  const config = lib.defaultLimits();
  // Array buffers that died (an earlier scenario's store, a log arena outgrown) are freed after a
  // collection, on a later turn: without the waits, either reading may still count them (the
  // figure swung from -75 KB to 166 KB on the same build).
  const used = async () => {
    for (let i = 0; i < 3; i++) {
      globalThis.gc();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const t0 = 1_700_000_000_000;
  const busyStore = lib.createMemoryStore();
  const keys = Array.from({ length: 100 }, (_, i) => `user:busy${i}`);
  // The first identity warms the code; measured: the 99 after it.
  await driveBusy((event, now) => busyStore.apply(event, now, config), keys[0], t0);
  const before = await used();
  for (const key of keys.slice(1))
    await driveBusy((event, now) => busyStore.apply(event, now, config), key, t0);
  const busy = ((await used()) - before) / 99;
  return { busy: Math.round(busy) };
}

/**
 * Bytes per identity in Redis: `count` idle identities (INFO used_memory before and after) and
 * one busy identity (MEMORY USAGE of its keys).
 * @param {import('ioredis').Redis} client
 * @param {(options: object) => { apply: Function, keysOf: (key: string) => string[] }} createRedisStore
 */
export async function redisBytes(client, createRedisStore, config, count) {
  await client.flushall();
  const store = createRedisStore({ client, timeoutMs: 5_000, useCallerClock: true });
  const t0 = 1_700_000_000_000;
  const one = async (i) => {
    const event = {
      kind: 'admit',
      key: `user:idle${i}`,
      resource: 'core',
      limit: 5000,
      cost: 1,
      content: false,
      graphql: false,
      countsPrimary: true,
    };
    const v = await store.apply(event, t0 + i, config);
    await store.apply({ kind: 'complete', ticket: v.ticket, status: 200, cpuMs: 3 }, t0 + i, config);
  };
  await one(-1);
  const memory = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))[1]);
  const before = await memory();
  for (let i = 0; i < count; i += 256) {
    const batch = [];
    for (let j = i; j < Math.min(count, i + 256); j++) batch.push(one(j));
    await Promise.all(batch);
  }
  const idle = (await memory()) - before;
  await driveBusy((event, now) => store.apply(event, now, config), 'user:busy', t0 + HOUR);
  let busy = 0;
  for (const key of store.keysOf('user:busy')) busy += (await client.memory('USAGE', key)) ?? 0;
  return { idle: Math.round((idle / count) * 10) / 10, busy };
}

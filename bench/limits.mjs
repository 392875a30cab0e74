// Limits bench: admissions per second through tollgate's limiter (admit + complete, every bucket of
// the request) beside rate-limiter-flexible's RateLimiterMemory.consume (one bucket), on the same
// identities and request mix; and the memory the memory store needs per idle identity.
// Called by bench/index.mjs; imports the BUILT library (run `npm run build` first).

import { createSameWorkPeer, createStateFloor } from './limits-floor.mjs';
import { prng } from './request-mix.mjs';

const IDENTITIES = 10_000;
/** Requests per task call: amortizes the bench's own timing (~50 ns per sample) over a batch. */
const BATCH = 100;
const T0 = 1_700_000_000_000;

// The same seeded PRNG as the request mix, so every run sees the same callers.
const random = prng;

/** 10,000 callers of every kind: user tokens, installations, anonymous IPs, workflow tokens. */
function makeTokens() {
  const tokens = [];
  for (let i = 0; i < IDENTITIES; i++) {
    const k = i % 20;
    if (k < 11)
      tokens.push({ kind: ['classic', 'fine-grained', 'app-user', 'oauth-app'][i % 4], user: `user${i}` });
    else if (k < 16)
      tokens.push({
        kind: 'app-installation',
        installation: String(i),
        repositoriesCount: i % 300,
        usersCount: i % 97,
      });
    else if (k < 19)
      tokens.push({ kind: 'anonymous', ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` });
    else tokens.push({ kind: 'workflow', repository: `org${i % 50}/repo${i}` });
  }
  return tokens;
}

/**
 * A realistic request mix: mostly REST reads on core, some writes (content-generating), GraphQL
 * queries and mutations, search, LFS, GET /rate_limit, conditional requests answered 304. Each
 * request has the same fields, as an adapter builds them from the endpoint table (cost, content
 * flag, resource) and the request (method, GraphQL or not).
 */
function makeRequests(identities, count) {
  const next = random(42);
  const requests = [];
  for (let i = 0; i < count; i++) {
    // Zipf-like popularity: a few identities make many requests.
    const identity = identities[Math.floor(IDENTITIES * next() ** 2)];
    const roll = next();
    let [resource, method, cost, content, graphql, countsPrimary, status] = [
      'core',
      'GET',
      1,
      false,
      false,
      true,
      200,
    ];
    if (roll < 0.62) {
      // a REST read
    } else if (roll < 0.7) status = 304;
    else if (roll < 0.8) [method, cost, content, status] = ['POST', 5, true, 201];
    else if (roll < 0.84) [method, cost] = ['PATCH', 5];
    else if (roll < 0.92) [resource, method, cost, graphql] = ['graphql', 'POST', roll > 0.9 ? 5 : 1, true];
    else if (roll < 0.96) resource = 'search';
    else if (roll < 0.98) [resource, method] = ['lfs', 'POST'];
    else countsPrimary = false;
    const admit = { identity, resource, method, cost, content, graphql, countsPrimary };
    requests.push({ admit, done: { status, cpuMs: Math.floor(next() * 40) }, key: identity.key });
  }
  return requests;
}

function opsPerSecond(task) {
  const hz = task.result?.throughput?.mean ?? task.result?.hz ?? 0;
  return hz * BATCH;
}

/**
 * Bytes of heap (and array buffers) per IDLE identity held by the memory store at `count`
 * identities: each made one request, completed, so nothing is in flight.
 */
export async function measureMemory(lib, count) {
  if (typeof globalThis.gc !== 'function')
    return { identities: count, bytesPerIdentity: null, note: 'run node with --expose-gc' };
  const keys = Array.from({ length: count }, (_, i) => `user:u${i}`);
  const config = lib.defaultLimits();
  const used = () => {
    globalThis.gc();
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  const before = used();
  const store = lib.createMemoryStore({ maxIdentities: count });
  const event = {
    kind: 'admit',
    key: '',
    resource: 'core',
    limit: 5000,
    cost: 1,
    content: false,
    graphql: false,
    countsPrimary: true,
  };
  for (let i = 0; i < count; i++) {
    event.key = keys[i];
    const verdict = store.apply(event, T0 + i, config);
    store.apply({ kind: 'complete', ticket: verdict.ticket, status: 200, cpuMs: 0 }, T0 + i, config);
  }
  const after = used();
  const bytesPerIdentity = (after - before) / count;
  if (store.size !== count) throw new Error(`memory store kept ${store.size} of ${count} identities`);
  return { identities: count, bytesPerIdentity: Math.round(bytesPerIdentity * 10) / 10, stateBytes: 16 * 8 };
}

/**
 * The memory floor is a diagnostic only if it decides as tollgate does: both, fresh, over the same
 * `count` requests in lockstep; returns the requests on which they disagree (0 expected).
 */
function checkFloor(lib, count) {
  let now = T0;
  const limiter = lib.createLimiter({ clock: () => now, store: lib.createMemoryStore() });
  const identities = makeTokens().map((token) => limiter.identify(token));
  const requests = makeRequests(identities, count);
  const floor = createStateFloor(T0);
  const own = new Map(
    identities.map((identity) => [identity, { key: identity.key, limits: identity.limits, row: -1 }]),
  );
  let disagreements = 0;
  for (const r of requests) {
    now += 2;
    const verdict = limiter.admit(r.admit);
    const floorRequest = { ...r.admit, identity: own.get(r.admit.identity) };
    const reset = floor.admit(floorRequest, now);
    if (verdict.allowed !== reset >= 0) disagreements++;
    if (verdict.ticket !== null) limiter.complete(verdict.ticket, r.done);
    if (reset >= 0) floor.complete(floorRequest, reset, r.done, now);
  }
  return disagreements;
}

/**
 * Runs the limits bench with tinybench's `Bench` and returns named results.
 * @param {{ Bench: typeof import('tinybench').Bench, time?: number, rounds?: number, memoryIdentities?: number }} options
 */
export async function runLimitsBench({ Bench, time = 5000, rounds = 5 }) {
  const lib = { ...(await import('../dist/index.js')), ...(await import('../dist/limits.js')) };
  const { RateLimiterMemory } = await import('rate-limiter-flexible');

  // Setup, timed apart from the hot path.
  const setupStart = performance.now();
  let now = T0;
  const limiter = lib.createLimiter({
    clock: () => now,
    store: lib.createMemoryStore({ maxIdentities: IDENTITIES * 2 }),
  });
  const identities = makeTokens().map((token) => limiter.identify(token));
  const requests = makeRequests(identities, 1 << 16);
  const mask = requests.length - 1;
  const rlf = new RateLimiterMemory({ points: 5000, duration: 3600 });
  // Diagnostics: the same requests through the memory floor (identities of its own, the same
  // pointer walk: request, identity, its limits) and through rate-limiter-flexible doing every bucket.
  const floor = createStateFloor(T0);
  const floorIdentities = new Map(
    identities.map((identity) => [identity, { key: identity.key, limits: identity.limits, row: -1 }]),
  );
  const floorRequests = requests.map((r) => ({
    admit: { ...r.admit, identity: floorIdentities.get(r.admit.identity) },
    done: r.done,
  }));
  const sameWork = createSameWorkPeer(RateLimiterMemory);
  const floorDisagreements = checkFloor(lib, requests.length);
  const setupMs = performance.now() - setupStart;

  let i = 0;
  let sink = 0;
  let admitted = 0;
  let total = 0;
  // 2 ms of virtual time per request: 500 requests per second over 10,000 identities, so windows
  // roll, buckets refill and a realistic share of requests is admitted.
  const tollgateBatch = () => {
    for (let b = 0; b < BATCH; b++) {
      i = (i + 1) & mask;
      const r = requests[i];
      now += 2;
      const verdict = limiter.admit(r.admit);
      total++;
      // A server writes these headers on every response: read them, as the middleware does.
      sink ^= verdict.headers['x-ratelimit-remaining'].length;
      if (verdict.ticket !== null) {
        admitted++;
        limiter.complete(verdict.ticket, r.done);
      }
    }
  };
  const tollgateAwaited = async () => {
    for (let b = 0; b < BATCH; b++) {
      i = (i + 1) & mask;
      const r = requests[i];
      now += 2;
      const verdict = await limiter.admit(r.admit);
      sink ^= verdict.headers['x-ratelimit-remaining'].length;
      if (verdict.ticket !== null) await limiter.complete(verdict.ticket, r.done);
    }
  };
  let j = 0;
  const rlfBatch = async () => {
    for (let b = 0; b < BATCH; b++) {
      j = (j + 1) & mask;
      const r = requests[j];
      try {
        await rlf.consume(r.key, 1);
      } catch {
        // limited: a value for tollgate, a rejection here
      }
    }
  };

  let f = 0;
  let floorNow = T0;
  let floorAdmitted = 0;
  let floorTotal = 0;
  const floorBatch = () => {
    for (let b = 0; b < BATCH; b++) {
      f = (f + 1) & mask;
      const r = floorRequests[f];
      floorNow += 2;
      const reset = floor.admit(r.admit, floorNow);
      floorTotal++;
      if (reset >= 0) {
        floorAdmitted++;
        floor.complete(r.admit, reset, r.done, floorNow);
      }
    }
  };
  let w = 0;
  const sameWorkBatch = async () => {
    for (let b = 0; b < BATCH; b++) {
      w = (w + 1) & mask;
      const r = requests[w];
      await sameWork(r.key, r.admit, r.done);
    }
  };

  // Several short rounds, best of each task: on a busy machine, the round with the least
  // interference is the closest to what the code can do, for tollgate and the peer alike.
  const best = [0, 0, 0, 0, 0];
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time: time / rounds, warmupTime: 200 });
    bench.add('tollgate admit+complete (all buckets)', tollgateBatch);
    bench.add('tollgate admit+complete, awaited', tollgateAwaited);
    bench.add('rate-limiter-flexible consume (one bucket)', rlfBatch);
    bench.add('diagnostic: memory floor (the same state, no tollgate code)', floorBatch);
    bench.add('diagnostic: rate-limiter-flexible, every bucket tollgate checks', sameWorkBatch);
    await bench.run();
    bench.tasks.forEach((task, k) => {
      best[k] = Math.max(best[k], opsPerSecond(task));
    });
  }
  const [sync, awaited, peer, floorOps, sameWorkOps] = best;
  if (sink === -1) console.log(sink); // keeps the header reads alive

  const round = (x) => Math.round(x);
  return {
    name: 'limits',
    setupMs: Math.round(setupMs),
    identities: IDENTITIES,
    admittedShare: total === 0 ? null : Math.round((admitted / total) * 1000) / 1000,
    floorDisagreements,
    floorAdmittedShare: floorTotal === 0 ? null : Math.round((floorAdmitted / floorTotal) * 1000) / 1000,
    results: {
      tollgateAdmitComplete: { opsPerSec: round(sync) },
      tollgateAdmitCompleteAwaited: { opsPerSec: round(awaited) },
      rateLimiterFlexibleConsume: { opsPerSec: round(peer) },
      diagnosticMemoryFloor: { opsPerSec: round(floorOps) },
      diagnosticRateLimiterFlexibleSameWork: { opsPerSec: round(sameWorkOps) },
    },
    ratios: {
      tollgateVsRateLimiterFlexible: Math.round((sync / peer) * 100) / 100,
      tollgateAwaitedVsRateLimiterFlexible: Math.round((awaited / peer) * 100) / 100,
      // Diagnostics (labelled, not the ratio): tollgate against rate-limiter-flexible doing
      // the same buckets; the memory floor against the one-bucket peer (the best any code keeping
      // this state could reach); tollgate's time above the floor (floor ns / tollgate ns).
      diagnosticTollgateVsSameWorkPeer: Math.round((sync / sameWorkOps) * 100) / 100,
      diagnosticFloorVsRateLimiterFlexible: Math.round((floorOps / peer) * 100) / 100,
      diagnosticFloorShareOfTollgate: Math.round((sync / floorOps) * 100) / 100,
    },
    target: { tollgateVsRateLimiterFlexible: 2 },
  };
}

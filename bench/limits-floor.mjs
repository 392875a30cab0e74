// Diagnostics of the limits bench (never a replacement of its ratio): what the same work costs
// without tollgate's code around it.
// - `createStateFloor`: the memory floor. The smallest loop that keeps the state tollgate's rules
//   need for the same request stream, exact sliding logs included: find the identity's row (a
//   field of the identity, as tollgate's row hint), roll its primary window, read the sliding logs
//   the request is checked against (a one-entry log packed in the row, a longer one a ring in one
//   shared Float64Array), charge them, and on completion free the slot and charge CPU. No verdict,
//   ticket, headers, validation, leases, sweep or eviction: whatever tollgate spends above this
//   loop is its own code.
// - `createSameWorkPeer`: rate-limiter-flexible doing the buckets tollgate checks for the request,
//   one RateLimiterMemory per rule (fixed windows, and not all-or-nothing: it cannot be).

const W = 16; // numbers per row: at, in flight, six log slots, four primary windows (reset, used)
const LOGS = 6; // rest points, graphql points, cpu, graphql cpu, content per minute, content per hour
const SPAN = [60_000, 60_000, 61_000, 61_000, 60_000, 3_600_000];
const CAPACITY = [900, 2000, 90_000, 60_000, 80, 500];
const QUANTUM = [1, 1, 1000, 1000, 1, 1];
const WINDOW_MS = { core: 3_600_000, search: 60_000, graphql: 3_600_000, lfs: 60_000 };
const WINDOW_AT = { core: 8, search: 10, graphql: 12, lfs: 14 };
const PACK = 16_777_216; // a one-entry log: (stamp - base) x 2^24 + weight
const HEADER = 4; // a ring's header in the arena: head, size, sum, capacity

/**
 * The memory floor over `identities` (objects the floor owns: `{ key, limits, row }`, the same
 * pointer walk as tollgate's identities). `admit(r, now)` returns the window's reset when admitted
 * (the completion needs it for a 304's refund), -1 when refused; `complete(r, reset, now)`.
 */
export function createStateFloor(base) {
  let rows = new Float64Array(1024 * W);
  let nextRow = 0;
  let arena = new Float64Array(1 << 16);
  let top = 0;
  const freeBlocks = [];
  // The log being worked on, per rule: its block (-1: packed in the row), head, size, sum, and
  // the packed entry's stamp and weight.
  const block = new Int32Array(LOGS);
  const head = new Float64Array(LOGS);
  const size = new Float64Array(LOGS);
  const sum = new Float64Array(LOGS);
  const cap = new Float64Array(LOGS);
  const stamp1 = new Float64Array(LOGS);
  const weight1 = new Float64Array(LOGS);

  const allocate = (entries) => {
    const k = Math.log2(entries) - 3;
    const reused = freeBlocks[k]?.pop();
    if (reused !== undefined) return reused;
    const at = top;
    top += HEADER + 2 * entries;
    if (top > arena.length) {
      const grown = new Float64Array(arena.length * 2);
      grown.set(arena);
      arena = grown;
    }
    arena[at + 3] = entries;
    return at;
  };
  const release = (at) => {
    const k = Math.log2(arena[at + 3]) - 3;
    if (freeBlocks[k] === undefined) freeBlocks[k] = [at];
    else freeBlocks[k].push(at);
  };
  const load = (i, o, t) => {
    const slot = rows[o + 2 + i];
    const edge = t - SPAN[i];
    if (slot >= 0) {
      block[i] = -1;
      const w = slot % PACK;
      const s = (slot - w) / PACK + base;
      const live = slot > 0 && s > edge;
      size[i] = live ? 1 : 0;
      sum[i] = live ? w : 0;
      stamp1[i] = s;
      weight1[i] = w;
      return;
    }
    const b = -slot - 1;
    block[i] = b;
    let h = arena[b];
    let n = arena[b + 1];
    let total = arena[b + 2];
    const c = arena[b + 3];
    while (n > 0 && arena[b + HEADER + 2 * h] <= edge) {
      total -= arena[b + HEADER + 2 * h + 1];
      h = (h + 1) & (c - 1);
      n--;
    }
    head[i] = h;
    size[i] = n;
    sum[i] = n === 0 ? 0 : total;
    cap[i] = c;
  };
  const push = (i, s, w) => {
    let b = block[i];
    if (size[i] === cap[i]) {
      const c = cap[i];
      const grown = allocate(2 * c);
      for (let j = 0; j < c; j++) {
        const from = b + HEADER + 2 * ((head[i] + j) & (c - 1));
        arena[grown + HEADER + 2 * j] = arena[from];
        arena[grown + HEADER + 2 * j + 1] = arena[from + 1];
      }
      release(b);
      b = grown;
      block[i] = b;
      head[i] = 0;
      cap[i] = 2 * c;
    }
    const at = b + HEADER + 2 * ((head[i] + size[i]) & (cap[i] - 1));
    arena[at] = s;
    arena[at + 1] = w;
    size[i]++;
  };
  const charge = (i, t, w) => {
    if (!(w > 0)) return;
    const s = t - (t % QUANTUM[i]);
    sum[i] += w;
    if (block[i] < 0) {
      if (size[i] === 0) {
        size[i] = 1;
        stamp1[i] = s;
        weight1[i] = w;
      } else if (stamp1[i] >= s) weight1[i] += w;
      else {
        // A second entry: the log moves to a ring of the arena.
        const b = allocate(8);
        block[i] = b;
        head[i] = 0;
        size[i] = 0;
        cap[i] = 8;
        push(i, stamp1[i], weight1[i]);
        push(i, s, w);
      }
      return;
    }
    const b = block[i];
    const newest = b + HEADER + 2 * ((head[i] + size[i] - 1) & (cap[i] - 1));
    if (size[i] > 0 && arena[newest] >= s) arena[newest + 1] += w;
    else push(i, s, w);
  };
  const store = (i, o) => {
    const b = block[i];
    if (b < 0) {
      rows[o + 2 + i] = size[i] === 0 ? 0 : (stamp1[i] - base) * PACK + weight1[i];
      return;
    }
    if (size[i] <= 1) {
      const at = b + HEADER + 2 * head[i];
      rows[o + 2 + i] = size[i] === 0 ? 0 : (arena[at] - base) * PACK + arena[at + 1];
      release(b);
      return;
    }
    arena[b] = head[i];
    arena[b + 1] = size[i];
    arena[b + 2] = sum[i];
    rows[o + 2 + i] = -b - 1;
  };

  const admit = (r, now) => {
    const identity = r.identity;
    const resource = r.resource;
    const limit = identity.limits[resource];
    let row = identity.row;
    if (row < 0) {
      if ((nextRow + 1) * W > rows.length) {
        const grown = new Float64Array(rows.length * 2);
        grown.set(rows);
        rows = grown;
      }
      row = nextRow++;
      identity.row = row;
    }
    const o = row * W;
    const t = Math.max(now, rows[o]);
    const ws = o + WINDOW_AT[resource];
    const windowMs = WINDOW_MS[resource];
    const open = rows[ws] > t;
    const reset = open ? rows[ws] : Math.ceil((t + windowMs) / 1000) * 1000;
    const used = open ? rows[ws + 1] : 0;
    if (r.countsPrimary && used >= limit) return -1;
    if (rows[o + 1] >= 100) return -1;
    const p = r.graphql ? 1 : 0;
    load(p, o, t);
    load(2, o, t);
    if (r.graphql) load(3, o, t);
    if (r.content) {
      load(4, o, t);
      load(5, o, t);
    }
    let ok = sum[p] + r.cost <= CAPACITY[p] && sum[2] + 1 <= CAPACITY[2];
    if (r.graphql) ok &&= sum[3] + 1 <= CAPACITY[3];
    if (r.content) ok &&= sum[4] + 1 <= CAPACITY[4] && sum[5] + 1 <= CAPACITY[5];
    if (!ok) return -1;
    charge(p, t, r.cost);
    store(p, o);
    store(2, o);
    if (r.graphql) store(3, o);
    if (r.content) {
      charge(4, t, 1);
      charge(5, t, 1);
      store(4, o);
      store(5, o);
    }
    rows[o] = t;
    rows[o + 1]++;
    if (r.countsPrimary) {
      rows[ws] = reset;
      rows[ws + 1] = used + 1;
    }
    return r.countsPrimary ? reset : 0;
  };

  const complete = (r, reset, done, now) => {
    const o = r.identity.row * W;
    const t = Math.max(now, rows[o]);
    rows[o] = t;
    rows[o + 1]--;
    const ws = o + WINDOW_AT[r.resource];
    if (done.status === 304 && reset !== 0 && rows[ws] === reset && rows[ws + 1] > 0) rows[ws + 1]--;
    const cpu = Math.ceil(done.cpuMs);
    load(2, o, t);
    charge(2, t, Math.min(cpu, CAPACITY[2]));
    store(2, o);
    if (r.graphql) {
      load(3, o, t);
      charge(3, t, Math.min(cpu, CAPACITY[3]));
      store(3, o);
    }
  };
  return { admit, complete };
}

/**
 * rate-limiter-flexible doing, for each request, the buckets tollgate checks for it: the
 * resource's primary window, the points rule of its kind, the CPU rules (read at admission,
 * charged at completion), the content rules when it creates content, and the concurrency rule
 * (taken at admission, given back at completion); a 304 gives its primary point back.
 */
export function createSameWorkPeer(RateLimiterMemory) {
  const limiter = (points, seconds) => new RateLimiterMemory({ points, duration: seconds });
  const primary = {
    core: limiter(5000, 3600),
    search: limiter(30, 60),
    graphql: limiter(5000, 3600),
    lfs: limiter(3000, 60),
  };
  const restPoints = limiter(900, 60);
  const graphqlPoints = limiter(2000, 60);
  const cpu = limiter(90_000, 61);
  const graphqlCpu = limiter(60_000, 61);
  const perMinute = limiter(80, 60);
  const perHour = limiter(500, 3600);
  const inFlight = limiter(100, 600);
  const spent = (res) => (res === null ? 0 : res.consumedPoints);
  /** One request, admitted and completed; true when admitted. */
  return async (key, r, done) => {
    try {
      if (r.countsPrimary) await primary[r.resource].consume(key, 1);
      await (r.graphql ? graphqlPoints : restPoints).consume(key, r.cost);
      if (spent(await cpu.get(key)) >= 90_000) return false;
      if (r.graphql && spent(await graphqlCpu.get(key)) >= 60_000) return false;
      if (r.content) {
        await perMinute.consume(key, 1);
        await perHour.consume(key, 1);
      }
      await inFlight.consume(key, 1);
    } catch {
      return false;
    }
    await inFlight.reward(key, 1);
    if (done.cpuMs > 0) await cpu.penalty(key, done.cpuMs);
    if (r.graphql && done.cpuMs > 0) await graphqlCpu.penalty(key, done.cpuMs);
    if (done.status === 304 && r.countsPrimary) await primary[r.resource].reward(key, 1);
    return true;
  };
}

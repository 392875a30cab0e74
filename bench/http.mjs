// Scenario "http": real servers on 127.0.0.1 under autocannon, each in its own process. Bare
// node:http beside node:http behind tollgate and node:http with the peer stack (find-my-way, CASL,
// rate-limiter-flexible); bare Fastify beside Fastify with the tollgate plugin and Fastify with
// @fastify/rate-limit; Express with express-rate-limit as the familiar peer; and diagnostic floors
// (node+headers, node+headers+cpu, fastify+headers, fastify+headers+cpu: node or Fastify doing only
// the gate's required work, never a replacement of a peer ratio). The figure is the
// server's CPU time per request (its process's CPU over the requests it answered). Each kind runs
// `runs` times in interleaved rounds (the order reversed every other round), so a machine's changing
// load falls on every kind alike; each ratio is taken within a round, then summed up as
// min / median / max over the rounds.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import autocannon from 'autocannon';

export const HTTP_SERVERS = [
  'node',
  'node+tollgate',
  'node+peer-stack',
  'fastify',
  'fastify+tollgate',
  'fastify+@fastify/rate-limit',
  'express+express-rate-limit',
  // Diagnostic floors (bench/http-servers.mjs): what node and Fastify themselves spend on the
  // gate's required work (its six headers; the CPU clock and the response's 'close' listener).
  'node+headers',
  'node+headers+cpu',
  'fastify+headers',
  'fastify+headers+cpu',
];
const PATHS = ['app', 'api', 'docs', 'site'].map((repo) => `/repos/acme/${repo}/issues/events`);

// [ratio name, numerator kind, denominator kind, most the median may be, or null]; issue 21's targets.
export const HTTP_RATIOS = [
  ['node+tollgate CPU / node CPU', 'node+tollgate', 'node', 1.3],
  ['node+tollgate CPU / node+peer-stack CPU', 'node+tollgate', 'node+peer-stack', 1],
  ['fastify+tollgate CPU / fastify CPU', 'fastify+tollgate', 'fastify', 1.4],
  [
    'fastify+tollgate CPU / fastify+@fastify/rate-limit CPU',
    'fastify+tollgate',
    'fastify+@fastify/rate-limit',
    1,
  ],
  ['node+tollgate CPU / express+express-rate-limit CPU', 'node+tollgate', 'express+express-rate-limit', null],
  // Diagnostic rows, no target: the share of the 1.3x / 1.4x budgets node and Fastify spend on
  // the gate's required work before any tollgate code runs.
  ['diagnostic: node+headers CPU / node CPU', 'node+headers', 'node', null],
  ['diagnostic: node+headers+cpu CPU / node CPU', 'node+headers+cpu', 'node', null],
  ['diagnostic: node+tollgate CPU / node+headers+cpu CPU', 'node+tollgate', 'node+headers+cpu', null],
  ['diagnostic: fastify+headers CPU / fastify CPU', 'fastify+headers', 'fastify', null],
  ['diagnostic: fastify+headers+cpu CPU / fastify CPU', 'fastify+headers+cpu', 'fastify', null],
  [
    'diagnostic: fastify+tollgate CPU / fastify+headers+cpu CPU',
    'fastify+tollgate',
    'fastify+headers+cpu',
    null,
  ],
];

function startServer(kind) {
  const child = spawn(process.execPath, [new URL('./http-server.mjs', import.meta.url).pathname, kind], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.stdout.setEncoding('utf8');
  const lines = [];
  let waiting = null;
  child.stdout.on('data', (chunk) => {
    for (const line of chunk.split('\n').filter(Boolean)) {
      lines.push(line);
      waiting?.();
    }
  });
  const next = async (prefix) => {
    for (;;) {
      const found = lines.findIndex((line) => line.startsWith(prefix));
      if (found >= 0) return lines.splice(found, 1)[0].slice(prefix.length + 1);
      await new Promise((resolve) => {
        waiting = resolve;
      });
    }
  };
  return {
    port: next('port').then(Number),
    cpuMs: async () => {
      child.stdin.write('cpu\n');
      return Number(await next('cpu'));
    },
    stop: async () => {
      child.kill();
      await once(child, 'exit');
    },
  };
}

async function load(port, seconds) {
  // 100 callers (a token each) over 4 repositories, so tollgate keeps 100 identities warm.
  const requests = Array.from({ length: 100 }, (_, i) => ({
    method: 'GET',
    path: PATHS[i % PATHS.length],
    headers: { authorization: `Bearer bench-${i}` },
  }));
  return autocannon({ url: `http://127.0.0.1:${port}`, connections: 20, duration: seconds, requests });
}

/** One server: warm-up, then a measured run. */
async function measureServer(kind, seconds, warmup) {
  const server = startServer(kind);
  const port = await server.port;
  await load(port, warmup);
  const cpuBefore = await server.cpuMs();
  const run = await load(port, seconds);
  const cpuAfter = await server.cpuMs();
  await server.stop();
  const answered = run.requests.total;
  return {
    requestsPerSecond: answered / seconds,
    cpuMicrosPerRequest: ((cpuAfter - cpuBefore) * 1000) / answered,
    non2xx: run.non2xx,
    errors: run.errors,
    p99Ms: run.latency.p99,
  };
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const round2 = (x) => Number(x.toFixed(2));

/** min / median / max of a list; prints as `min / median / max` in a template string. */
function spread(values) {
  const summary = {
    min: round2(Math.min(...values)),
    median: round2(median(values)),
    max: round2(Math.max(...values)),
  };
  return {
    ...summary,
    runs: values.map(round2),
    toString: () => `${summary.min} / ${summary.median} / ${summary.max}`,
  };
}

/**
 * Every server kind `runs` times (default 5), interleaved. Returns per kind the median figures and
 * each run's CPU µs per request; each ratio's value per round (`ratioRuns`, in round order) and as
 * min / median / max (`ratios`); `targets` as `{ atMost }` on the median (issue 21).
 */
export async function runHttpBench({ seconds = 5, warmup = 1, runs = 5, kinds = HTTP_SERVERS } = {}) {
  const perRun = Object.fromEntries(kinds.map((kind) => [kind, []]));
  for (let round = 0; round < runs; round++)
    for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse())
      perRun[kind].push(await measureServer(kind, seconds, warmup));
  const results = {};
  for (const kind of kinds) {
    const list = perRun[kind];
    results[kind] = {
      requestsPerSecond: Math.round(median(list.map((r) => r.requestsPerSecond))),
      cpuMicrosPerRequest: Number(median(list.map((r) => r.cpuMicrosPerRequest)).toFixed(1)),
      cpuMicrosPerRequestRuns: list.map((r) => Number(r.cpuMicrosPerRequest.toFixed(1))),
      non2xx: list.reduce((sum, r) => sum + r.non2xx, 0),
      errors: list.reduce((sum, r) => sum + r.errors, 0),
      p99Ms: median(list.map((r) => r.p99Ms)),
    };
  }
  // bench/index.mjs prints `ratioRuns` as min / median / max beside `targets` (bench-report.mjs).
  const ratioRuns = {};
  const ratios = {};
  const targets = {};
  for (const [name, top, bottom, bound] of HTTP_RATIOS) {
    if (perRun[top] === undefined || perRun[bottom] === undefined) continue;
    ratioRuns[name] = perRun[top].map((r, i) =>
      round2(r.cpuMicrosPerRequest / perRun[bottom][i].cpuMicrosPerRequest),
    );
    ratios[name] = spread(ratioRuns[name]);
    // "Below the peer" is judged as at most 1.
    if (bound !== null) targets[name] = { atMost: bound };
  }
  return { runs, seconds, results, ratioRuns, ratios, targets };
}

// Scenario "http": real servers on 127.0.0.1 under autocannon, each in its own process. Bare
// node:http beside node:http behind tollgate, bare Fastify beside Fastify with the plugin, and
// Express with express-rate-limit as the familiar peer. Requests per second, and the server's CPU
// time per request (its process's CPU over the requests it answered).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import autocannon from 'autocannon';

export const HTTP_SERVERS = [
  'node',
  'node+headers',
  'node+tollgate',
  'fastify',
  'fastify+tollgate',
  'express+express-rate-limit',
];
const PATHS = ['app', 'api', 'docs', 'site'].map((repo) => `/repos/acme/${repo}/issues/events`);

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

/** Each server: warm-up, then a measured run; requests per second and server CPU µs per request. */
export async function runHttpBench({ seconds = 5, warmup = 1 } = {}) {
  const results = {};
  for (const kind of HTTP_SERVERS) {
    const server = startServer(kind);
    const port = await server.port;
    await load(port, warmup);
    const cpuBefore = await server.cpuMs();
    const run = await load(port, seconds);
    const cpuAfter = await server.cpuMs();
    await server.stop();
    const answered = run.requests.total;
    results[kind] = {
      requestsPerSecond: Math.round(answered / seconds),
      cpuMicrosPerRequest: Number((((cpuAfter - cpuBefore) * 1000) / answered).toFixed(1)),
      non2xx: run.non2xx,
      errors: run.errors,
      p99Ms: run.latency.p99,
    };
  }
  const cpu = (kind) => results[kind].cpuMicrosPerRequest;
  const rps = (kind) => results[kind].requestsPerSecond;
  const ratios = {
    'node+tollgate CPU / node CPU': Number((cpu('node+tollgate') / cpu('node')).toFixed(2)),
    'fastify+tollgate CPU / fastify CPU': Number((cpu('fastify+tollgate') / cpu('fastify')).toFixed(2)),
    'node+tollgate rps / express+express-rate-limit rps': Number(
      (rps('node+tollgate') / rps('express+express-rate-limit')).toFixed(2),
    ),
  };
  const targets = {
    'tollgate adds at most 20% CPU per request over bare node:http':
      ratios['node+tollgate CPU / node CPU'] <= 1.2,
    'node:http behind tollgate serves more requests per second than express + express-rate-limit':
      ratios['node+tollgate rps / express+express-rate-limit rps'] > 1,
  };
  return { results, ratios, targets };
}

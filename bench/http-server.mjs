// One server for the HTTP bench, in its own process so its CPU time is its own:
// `node bench/http-server.mjs <kind>` prints `port <n>`, then answers `cpu` on stdin with its CPU ms.
// Every server answers the same small JSON body; tollgate runs authorize and every limit.
import { createServer } from 'node:http';
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import Fastify from 'fastify';
import { tollgatePlugin } from '../dist/fastify.js';
import { createGate, createLimiter, createMemoryStore } from '../dist/index.js';
import { defaultLimits } from '../dist/limits.js';
import { tollgate } from '../dist/node.js';

const BODY = '[{"id":1,"event":"closed"}]';
const kind = process.argv[2];

// Every rule in force, with numbers no bench run reaches: every request goes through authorize and
// every limit and is passed on (a refused request would be cheaper, and flatter the figures).
const shipped = defaultLimits();
const roomy = {
  ...shipped,
  primary: {
    ...shipped.primary,
    callers: Object.fromEntries(
      Object.entries(shipped.primary.callers).map(([caller, rule]) => [
        caller,
        { ...rule, limit: 1e12, ...('ceiling' in rule ? { ceiling: 1e12 } : {}) },
      ]),
    ),
  },
  secondary: {
    ...shipped.secondary,
    concurrency: { ...shipped.secondary.concurrency, limit: 1e6 },
    points: { ...shipped.secondary.points, rest: 1e12 },
    cpu: { ...shipped.secondary.cpu, totalMs: 1e12 },
  },
};
// The server's token store, as a real server caches its lookups: one Token object per secret.
const tokens = new Map(
  Array.from({ length: 100 }, (_, i) => [
    `bench-${i}`,
    { kind: 'fine-grained', user: `user${i}`, permissions: { issues: 'read' }, repositories: 'all' },
  ]),
);
// BENCH_WINDOW_MODES=bucket counts the windowed rules as 0.1 did (one number each), to measure the
// gate's own cost apart from the sliding logs: with these roomy ceilings a log keeps an entry per
// millisecond of the last minute, which the seed's 900 points never allow.
const windowModes =
  process.env.BENCH_WINDOW_MODES === 'bucket'
    ? {
        rest_points: 'bucket',
        graphql_points: 'bucket',
        content_per_minute: 'bucket',
        content_per_hour: 'bucket',
      }
    : undefined;
const gateOf = () =>
  createGate({
    limiter: createLimiter({
      store: createMemoryStore(),
      config: roomy,
      ...(windowModes ? { windowModes } : {}),
    }),
    lookupToken: (secret) => tokens.get(secret) ?? null,
  });

async function start() {
  if (kind === 'node+headers') {
    // Bare node:http writing the same headers tollgate adds: what the bytes alone cost.
    const server = createServer((_req, res) => {
      res.setHeader('X-Accepted-Service-Permissions', 'issues=read');
      res.setHeader('x-ratelimit-limit', '5000');
      res.setHeader('x-ratelimit-remaining', '4999');
      res.setHeader('x-ratelimit-used', '1');
      res.setHeader('x-ratelimit-reset', String(Math.ceil(Date.now() / 1000) + 3600));
      res.setHeader('x-ratelimit-resource', 'core');
      res.writeHead(200, { 'content-type': 'application/json' }).end(BODY);
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    return server.address().port;
  }
  if (kind === 'node' || kind === 'node+tollgate') {
    const answer = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(BODY);
    const guard = kind === 'node' ? null : tollgate(gateOf());
    const server = createServer(
      guard === null ? answer : (req, res) => guard(req, res, () => answer(req, res)),
    );
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    return server.address().port;
  }
  if (kind === 'fastify' || kind === 'fastify+tollgate') {
    const app = Fastify();
    if (kind === 'fastify+tollgate') await app.register(tollgatePlugin, gateOf());
    app.get('/repos/:owner/:repo/issues/events', async (_request, reply) =>
      reply.type('application/json').send(BODY),
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    return app.server.address().port;
  }
  if (kind === 'express+express-rate-limit') {
    const app = express();
    app.use(
      rateLimit({ windowMs: 3_600_000, limit: 1e12, standardHeaders: 'draft-7', legacyHeaders: false }),
    );
    app.get('/repos/:owner/:repo/issues/events', (_req, res) => res.type('application/json').send(BODY));
    const server = createServer(app);
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    return server.address().port;
  }
  throw new Error(`unknown server kind ${kind}`);
}

const port = await start();
const cpu0 = process.cpuUsage();
console.log(`port ${port}`);
process.stdin.setEncoding('utf8');
process.stdin.on('data', (line) => {
  if (line.trim() !== 'cpu') return;
  const { user, system } = process.cpuUsage(cpu0);
  console.log(`cpu ${(user + system) / 1000}`);
});

// The servers of the HTTP bench, by kind (bench/http.mjs lists them), made but not listening:
// bench/http-server.mjs runs one in its own process. Every server answers the same small JSON body;
// tollgate runs authorize and every limit.
import { createServer } from 'node:http';
import { AbilityBuilder, createMongoAbility } from '@casl/ability';
import fastifyRateLimit from '@fastify/rate-limit';
import express from 'express';
import { rateLimit } from 'express-rate-limit';
import Fastify from 'fastify';
import FindMyWay from 'find-my-way';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { tollgatePlugin } from '../dist/fastify.js';
import { createGate, createLimiter, createMemoryStore, shippedTables } from '../dist/index.js';
import { defaultLimits } from '../dist/limits.js';
import { tollgate } from '../dist/node.js';
import { colonTemplate } from './request-mix.mjs';

const BODY = '[{"id":1,"event":"closed"}]';

// Every rule in force, with numbers no bench run reaches: every request goes through authorize and
// every limit and is passed on (a refused request would be cheaper, and flatter the figures).
const shipped = defaultLimits();
export const roomy = {
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
// The server's token store, as a real server caches its lookups: one Token object per secret
// (exported with the gate and the peer stack for bench/middleware-ops.mjs).
export const tokens = new Map(
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
export const gateOf = (options = {}) =>
  createGate({
    limiter: createLimiter({
      store: createMemoryStore(),
      config: roomy,
      ...(windowModes ? { windowModes } : {}),
    }),
    lookupToken: (secret) => tokens.get(secret) ?? null,
    ...options,
  });

// The peer stack doing the gate's job with the usual libraries: find-my-way routes every table
// endpoint, @casl/ability checks the endpoint's first fine-grained permission against the token's
// (one ability per token, cached as the token is), rate-limiter-flexible's memory limiter counts the
// endpoint's cost in one hourly bucket per token, and the answer carries the same headers. Less
// than the gate does (one rule, one counter, no visibility, no concurrency or CPU accounting).
export function peerStack() {
  const router = FindMyWay();
  const handler = () => {};
  for (const entry of shippedTables().endpoints)
    try {
      router.on(entry.method, colonTemplate(entry.template, null), handler, entry);
    } catch {
      // A template find-my-way cannot tell from another (a multi-segment parameter): left out.
    }
  const abilities = new Map();
  const abilityOf = (token) => {
    let ability = abilities.get(token);
    if (ability === undefined) {
      const { can, build } = new AbilityBuilder(createMongoAbility);
      for (const [slug, level] of Object.entries(token.permissions)) {
        can('read', slug);
        if (level === 'write') can('write', slug);
      }
      ability = build();
      abilities.set(token, ability);
    }
    return ability;
  };
  const limiter = new RateLimiterMemory({ points: 1e12, duration: 3600 });
  const refuse = (res, status, message) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ message, status }));
  return (req, res, next) => {
    const authorization = req.headers.authorization;
    const token = authorization?.startsWith('Bearer ') ? tokens.get(authorization.slice(7)) : undefined;
    if (token === undefined) return refuse(res, 401, 'Bad credentials');
    const url = req.url;
    const query = url.indexOf('?');
    const found = router.find(req.method, query < 0 ? url : url.slice(0, query));
    if (found === null) return refuse(res, 404, 'Not Found');
    const entry = found.store;
    const required = entry.fineGrained?.[0];
    let allowed = required !== undefined;
    for (const slug in required) allowed &&= abilityOf(token).can(required[slug], slug);
    if (!allowed) return refuse(res, 403, 'Resource not accessible by personal access token');
    const { cost, resource } = entry.charge;
    limiter.consume(token.user, cost).then(
      (state) => {
        if (entry.acceptedPermissionsHeader !== null)
          res.setHeader('X-Accepted-Service-Permissions', entry.acceptedPermissionsHeader);
        res.setHeader('x-ratelimit-limit', '5000');
        res.setHeader('x-ratelimit-remaining', String(state.remainingPoints));
        res.setHeader('x-ratelimit-used', String(state.consumedPoints));
        res.setHeader('x-ratelimit-reset', String(Math.ceil((Date.now() + state.msBeforeNext) / 1000)));
        res.setHeader('x-ratelimit-resource', resource);
        next();
      },
      () => refuse(res, 429, 'API rate limit exceeded'),
    );
  };
}

// The six headers the gate adds to the bench's answers, with values of the same lengths.
const GATE_HEADERS = {
  'x-accepted-service-permissions': 'issues=read',
  'x-ratelimit-limit': '1000000000000',
  'x-ratelimit-remaining': '999999999999',
  'x-ratelimit-used': '1',
  'x-ratelimit-reset': '1795562449',
  'x-ratelimit-resource': 'core',
};

// The gate's CPU clock (src/gate/cpu-share.ts, processCpuClock), copied: every call reads the wall
// clock, and process.cpuUsage at most once a millisecond.
function gateCpuClock() {
  let readAt = Number.NEGATIVE_INFINITY;
  let last = 0;
  return () => {
    const now = performance.now();
    if (now - readAt >= 1) {
      const { user, system } = process.cpuUsage();
      last = (user + system) / 1000;
      readAt = now;
    }
    return last;
  };
}

const FASTIFY_KINDS = [
  'fastify',
  'fastify+tollgate',
  'fastify+@fastify/rate-limit',
  'fastify+headers',
  'fastify+headers+cpu',
];

/**
 * The server of `kind`, not yet listening: `{ server, listen }`, where `listen()` listens on
 * 127.0.0.1 and resolves to the port (Fastify's own `listen` for the Fastify kinds).
 */
export async function benchServer(kind) {
  if (kind === 'node+headers' || kind === 'node+headers+cpu') {
    // Diagnostic floors, not peers: bare node:http doing only what node itself must do for the
    // gate's required work. `node+headers` writes the gate's six headers with the node API the
    // adapter uses (setHeader, then the handler's writeHead); `+cpu` also reads the CPU clock as
    // the gate does (at the request's arrival and when its response closes, through the one
    // 'close' listener the slot release needs anyway).
    const clock = kind === 'node+headers+cpu' ? gateCpuClock() : null;
    const server = createServer((_req, res) => {
      if (clock !== null) {
        clock();
        res.on('close', clock);
      }
      for (const name in GATE_HEADERS) res.setHeader(name, GATE_HEADERS[name]);
      res.writeHead(200, { 'content-type': 'application/json' }).end(BODY);
    });
    return nodeListening(server);
  }
  if (kind === 'node' || kind === 'node+tollgate' || kind === 'node+peer-stack') {
    const answer = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(BODY);
    const guard = kind === 'node' ? null : kind === 'node+peer-stack' ? peerStack() : tollgate(gateOf());
    const server = createServer(
      guard === null ? answer : (req, res) => guard(req, res, () => answer(req, res)),
    );
    return nodeListening(server);
  }
  if (FASTIFY_KINDS.includes(kind)) {
    const app = Fastify();
    // Diagnostic floors, not peers: one onRequest hook doing what Fastify itself must do for the
    // gate's required work, as the plugin does it (reply.headers; +cpu: the CPU clock read at the
    // request's arrival and when the raw response closes, through one 'close' listener).
    if (kind === 'fastify+headers' || kind === 'fastify+headers+cpu') {
      const clock = kind === 'fastify+headers+cpu' ? gateCpuClock() : null;
      app.addHook('onRequest', (_request, reply, done) => {
        if (clock !== null) {
          clock();
          reply.raw.on('close', clock);
        }
        reply.headers(GATE_HEADERS);
        done();
      });
    }
    if (kind === 'fastify+tollgate') await app.register(tollgatePlugin, gateOf());
    // Its memory store and default headers; keyed by the token as the gate keys its callers (its
    // default key, the address, would put every bench caller in one bucket).
    if (kind === 'fastify+@fastify/rate-limit')
      await app.register(fastifyRateLimit, {
        max: 1e12,
        timeWindow: 3_600_000,
        keyGenerator: (request) => request.headers.authorization ?? request.ip,
      });
    app.get('/repos/:owner/:repo/issues/events', async (_request, reply) =>
      reply.type('application/json').send(BODY),
    );
    await app.ready();
    return {
      server: app.server,
      listen: async () => {
        await app.listen({ port: 0, host: '127.0.0.1' });
        return app.server.address().port;
      },
    };
  }
  if (kind === 'express+express-rate-limit') {
    const app = express();
    app.use(
      rateLimit({ windowMs: 3_600_000, limit: 1e12, standardHeaders: 'draft-7', legacyHeaders: false }),
    );
    app.get('/repos/:owner/:repo/issues/events', (_req, res) => res.type('application/json').send(BODY));
    const server = createServer(app);
    return nodeListening(server);
  }
  throw new Error(`unknown server kind ${kind}`);
}

function nodeListening(server) {
  return {
    server,
    listen: async () => {
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      return server.address().port;
    },
  };
}

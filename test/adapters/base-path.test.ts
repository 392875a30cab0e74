// The gate under `/api` (issue 18, item 5), on real servers: each framework's own way of mounting
// an API under a prefix, and the gate's `basePath` where the framework's prefix is out of its
// reach. API paths get the gate's decisions (not 404); paths outside are unknown endpoints.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import express4 from 'express4';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { tollgatePlugin } from '../../src/adapters/fastify.js';
import { withTollgate } from '../../src/adapters/fetch.js';
import { tollgate } from '../../src/adapters/node.js';
import {
  createGate,
  createLimiter,
  createMemoryStore,
  type GateOptions,
  isTollgateError,
} from '../../src/index.js';
import { tokenOfSecret } from './test-gate.js';

const EVENTS = '/repos/octo/app/issues/events';
const READER = 'fine-grained:reader:issues=read';

function gateOptions(extra: Partial<GateOptions> = {}): GateOptions {
  return {
    limiter: createLimiter({ store: createMemoryStore() }),
    lookupToken: (secret) => tokenOfSecret(secret),
    ...extra,
  };
}

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push(
    () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

type Mount = (extra: Partial<GateOptions>) => Promise<string>;

const ok = (route: string) => JSON.stringify({ route });

const MOUNTS: Record<string, Mount> = {
  "Express 5: app.use('/api', gate) and a router under /api (Express strips the mount path)": (extra) => {
    const app = express();
    const api = express.Router();
    api.get('/repos/:owner/:repo/issues/events', (_req, res) => void res.type('json').send(ok('events')));
    app.use('/api', tollgate(gateOptions(extra)), api);
    app.get('/healthz', (_req, res) => void res.type('json').send(ok('healthz')));
    return listen(createServer(app));
  },
  "Express 4: app.use('/api', gate) and a router under /api": (extra) => {
    const app = express4();
    const api = express4.Router();
    api.get('/repos/:owner/:repo/issues/events', (_req, res) => void res.type('json').send(ok('events')));
    app.use('/api', tollgate(gateOptions(extra)), api);
    app.get('/healthz', (_req, res) => void res.type('json').send(ok('healthz')));
    return listen(createServer(app));
  },
  "Express 5: app.use(gate) with basePath '/api'": (extra) => {
    const app = express();
    app.use(tollgate(gateOptions({ basePath: '/api', ...extra })));
    app.get('/api/repos/:owner/:repo/issues/events', (_req, res) => void res.type('json').send(ok('events')));
    app.get('/healthz', (_req, res) => void res.type('json').send(ok('healthz')));
    return listen(createServer(app));
  },
  "Fastify: register(tollgatePlugin, { prefix: '/api' }) beside routes under /api": async (extra) => {
    const app = Fastify();
    await app.register(tollgatePlugin, { prefix: '/api', ...gateOptions(extra) });
    await app.register(
      async (api) => {
        api.get('/repos/:owner/:repo/issues/events', async (_request, reply) =>
          reply.type('application/json').send(ok('events')),
        );
      },
      { prefix: '/api' },
    );
    app.get('/healthz', async (_request, reply) => reply.type('application/json').send(ok('healthz')));
    await app.listen({ port: 0, host: '127.0.0.1' });
    open.push(async () => {
      app.server.closeAllConnections();
      await app.close();
    });
    return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  },
  'Fastify: the plugin registered inside a context prefixed /api (its prefix read from the instance)': async (
    extra,
  ) => {
    const app = Fastify();
    await app.register(
      async (api) => {
        await api.register(tollgatePlugin, gateOptions(extra));
        // Hooks of a prefixed context run for its routes only (a path it lacks goes to the root's
        // 404 handler), so `/rate_limit`, which the gate answers itself, needs a route here.
        api.get('/rate_limit', async () => ({}));
        api.get('/repos/:owner/:repo/issues/events', async (_request, reply) =>
          reply.type('application/json').send(ok('events')),
        );
      },
      { prefix: '/api' },
    );
    app.get('/healthz', async (_request, reply) => reply.type('application/json').send(ok('healthz')));
    await app.listen({ port: 0, host: '127.0.0.1' });
    open.push(async () => {
      app.server.closeAllConnections();
      await app.close();
    });
    return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  },
  "Hono: app.route('/api', api) wrapped with basePath '/api'": (extra) => {
    const api = new Hono();
    api.get('/repos/:owner/:repo/issues/events', (c) => c.json({ route: 'events' }));
    const app = new Hono();
    app.route('/api', api);
    app.get('/healthz', (c) => c.json({ route: 'healthz' }));
    return serveHono(
      withTollgate(app.fetch, gateOptions({ basePath: '/api', ...extra }), { clientAddress: null }),
    );
  },
  "Hono: new Hono().basePath('/api') wrapped with basePath '/api'": (extra) => {
    const app = new Hono();
    app.get('/healthz', (c) => c.json({ route: 'healthz' }));
    app.basePath('/api').get('/repos/:owner/:repo/issues/events', (c) => c.json({ route: 'events' }));
    return serveHono(
      withTollgate(app.fetch, gateOptions({ basePath: '/api', ...extra }), { clientAddress: null }),
    );
  },
  "Hono: app.mount('/api', gated api) (Hono strips the mount path)": (extra) => {
    const api = new Hono();
    api.get('/repos/:owner/:repo/issues/events', (c) => c.json({ route: 'events' }));
    const app = new Hono();
    app.mount('/api', withTollgate(api.fetch, gateOptions(extra), { clientAddress: null }));
    app.get('/healthz', (c) => c.json({ route: 'healthz' }));
    return serveHono(app.fetch);
  },
  "node:http with basePath '/api'": (extra) => {
    const guard = tollgate(gateOptions({ basePath: '/api', ...extra }));
    return listen(
      createServer((req, res) => {
        const path = new URL(req.url!, 'http://x').pathname;
        if (path === '/healthz')
          return void res.writeHead(200, { 'content-type': 'application/json' }).end(ok('healthz'));
        guard(req, res, () => res.writeHead(200, { 'content-type': 'application/json' }).end(ok('events')));
      }),
    );
  },
};

async function serveHono(fetch: (request: Request) => Response | Promise<Response>): Promise<string> {
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise((resolve) => (server.listening ? resolve(null) : server.once('listening', resolve)));
  open.push(
    () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const get = (url: string, secret?: string) =>
  fetch(url, secret === undefined ? {} : { headers: { authorization: `Bearer ${secret}` } });

describe.each(Object.entries(MOUNTS))('the gate under /api: %s', (_name, mount) => {
  it('decides API paths under /api as the table endpoints: allowed, refused, /rate_limit answered', async () => {
    const url = await mount({});
    const allowed = await get(`${url}/api${EVENTS}`, READER);
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toEqual({ route: 'events' });
    expect(allowed.headers.get('x-accepted-service-permissions')).toBe('issues=read');
    expect(allowed.headers.get('x-ratelimit-remaining')).toBe('4999');
    // The gate's own answer (a private repository is not there for an anonymous caller), not a router's 404.
    const anonymous = await get(`${url}/api${EVENTS}`);
    expect(anonymous.status).toBe(404);
    expect(await anonymous.json()).toMatchObject({
      message: 'Not Found',
      status: '404',
      documentation_url: expect.any(String),
    });
    const spelled = await get(`${url}/api/Repos/octo/app/issues/events`, 'fine-grained:nobody:contents=read');
    // Decided as the endpoint by the gate (403), or not routed at all by a case-sensitive router
    // (Fastify routes a prefixed context's hooks only for paths that reach the context).
    expect([403, 404]).toContain(spelled.status);
    if (spelled.status === 403)
      expect(spelled.headers.get('x-accepted-service-permissions')).toBe('issues=read');
    const status = await get(`${url}/api/rate_limit`, READER);
    expect(status.status).toBe(200);
    expect(((await status.json()) as { resources: { core: { used: number } } }).resources.core.used).toBe(1);
  });

  it('treats a path outside /api as an unknown endpoint: 404 by default, passed on with pass-through', async () => {
    const denying = await mount({});
    const refused = await get(`${denying}/healthz`);
    // Express and Hono mounts never show the gate a path outside their mount: the app answers it.
    if (refused.status === 200) expect(await refused.json()).toEqual({ route: 'healthz' });
    else {
      expect(refused.status).toBe(404);
      expect(((await refused.json()) as { message: string }).message).toBe('Not Found');
    }
    const passing = await mount({ unknownEndpoint: 'pass-through' });
    const passed = await get(`${passing}/healthz`);
    expect(passed.status).toBe(200);
    expect(await passed.json()).toEqual({ route: 'healthz' });
  });
});

describe('basePath', () => {
  it('refuses what is not a path, naming the value and the valid forms', () => {
    for (const basePath of ['api', '/api//v3', '/a%20b', '/./x', 5]) {
      try {
        createGate(gateOptions({ basePath: basePath as string }));
        expect.unreachable(`accepted ${String(basePath)}`);
      } catch (error) {
        expect(isTollgateError(error) && error.code).toBe('TOLLGATE_INVALID_OPTION');
        expect((error as Error).message).toContain(`\`${String(basePath)}\``);
        expect((error as Error).message).toContain('`/api`');
      }
    }
  });

  it('decides every spelling of the base path a router reads as it, never as a path outside it', async () => {
    const gate = createGate(gateOptions({ basePath: '/api/v3', unknownEndpoint: 'pass-through' }));
    const facts = (target: string) => ({
      method: 'GET',
      target,
      header: () => undefined,
      remoteAddress: '203.0.113.9',
    });
    // The characters a router's case folding reads as `k` and `s` (see split-path.ts) spell it too.
    const tasks = createGate(gateOptions({ basePath: '/tasks', unknownEndpoint: 'pass-through' }));
    for (const spelling of ['/ta%C5%BF%E2%84%AAs', '/TA\u017fK\u017f'])
      expect((await tasks.check(facts(`${spelling}${EVENTS}`))).decision?.endpoint, spelling).toBe(
        'GET /repos/{owner}/{repo}/issues/events',
      );
    for (const spelling of ['/api/v3', '/API/V3', '//api//v3/', '/%61pi/v%33', '/Api/v3/'])
      expect((await gate.check(facts(`${spelling}${EVENTS}`))).decision?.endpoint, spelling).toBe(
        'GET /repos/{owner}/{repo}/issues/events',
      );
    for (const outside of ['/api/v31', '/apiv3', '/api', '/v3/api', '/api%2Fv3'])
      expect((await gate.check(facts(`${outside}${EVENTS}`))).decision?.reason, outside).toBe('pass_through');
  });

  it('refuses a ready-made gate registered under a Fastify prefix it cannot apply', async () => {
    const app = Fastify();
    const gate = createGate(gateOptions());
    await expect(async () => {
      await app.register(tollgatePlugin, Object.assign(Object.create(gate), { prefix: '/api' }));
      await app.ready();
    }).rejects.toThrow(/prefix `\/api`/);
    await app.close();
  });
});

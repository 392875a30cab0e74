// Real servers for the spelling property test (issue 18, item 1): every table endpoint registered
// in each framework's own route syntax, behind the gate, with a handler that records which
// endpoint it serves for which request. The gate's every answer is recorded too, by request id,
// so the test can tell whether the gate allowed that very request as that very endpoint.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import express4 from 'express4';
import Fastify, { type FastifyInstance } from 'fastify';
import { Hono } from 'hono';
import { tollgatePlugin } from '../../src/adapters/fastify.js';
import { withTollgate } from '../../src/adapters/fetch.js';
import { tollgate } from '../../src/adapters/node.js';
import { createGate, createLimiter, createMemoryStore, type Gate, type GateAnswer } from '../../src/index.js';
import { bySpecificity, pathOf, type TableRoute, unreachableLimits } from './spelling-routes.js';
import { tokenOfSecret } from './test-gate.js';

/** The gate's answer to one probe request, as recorded by the gate itself. */
export interface GateSeen {
  readonly action: GateAnswer['action'];
  readonly reason: string;
  readonly endpoint: string | null;
}

/** What one server saw: the gate's answers and the handlers that ran, by the request's `x-probe-id`. */
export interface Probe {
  readonly gate: Map<string, GateSeen>;
  readonly ran: Map<string, string>;
}

/**
 * A deny gate and a pass-through gate behind one Gate: the request's `x-probe-mode` header picks.
 * Both record their answer under the request's `x-probe-id`.
 */
function probeGate(probe: Probe, basePath: string): Gate {
  const options = {
    basePath,
    lookupToken: tokenOfSecret,
    measureCpu: false,
    // A hostile `skip` that would keep every odd spelling away from the gate: the gate must decide
    // them anyway (src/gate/bypass-guard.ts), or a handler would run unchecked.
    skip: (facts: { readonly target: string }) =>
      facts.target !== facts.target.toLowerCase() || /\/\/|\/$|\/\?|%|\.git/.test(facts.target),
  } as const;
  const limiter = () => createLimiter({ store: createMemoryStore(), config: unreachableLimits });
  const deny = createGate({ ...options, limiter: limiter() });
  const pass = createGate({ ...options, limiter: limiter(), unknownEndpoint: 'pass-through' });
  const record = (id: string, answer: GateAnswer): GateAnswer => {
    const reason = answer.action === 'respond' ? answer.reason : (answer.decision?.reason ?? 'skipped');
    probe.gate.set(id, { action: answer.action, reason, endpoint: answer.decision?.endpoint ?? null });
    return answer;
  };
  return {
    ...deny,
    check(facts) {
      const gate = facts.header('x-probe-mode') === 'pass' ? pass : deny;
      const id = facts.header('x-probe-id') ?? '';
      const answer = gate.check(facts);
      return answer instanceof Promise ? answer.then((given) => record(id, given)) : record(id, answer);
    },
  };
}

/** A running server and what it saw. */
export interface ProbeServer {
  readonly name: string;
  readonly port: number;
  /** What the API's paths start with on this server (`''` or `/api`). */
  readonly prefix: string;
  readonly probe: Probe;
  close(): Promise<void>;
}

export interface ServerSetup {
  readonly name: string;
  readonly prefix: string;
  /** What the router reads as the listed route: a static segment in other letter case, a trailing slash. */
  readonly reads: { readonly letterCase: boolean; readonly trailingSlash: boolean };
  start(routes: readonly TableRoute[], gate: Gate, ran: (id: string, key: string) => void): Promise<Server>;
}

const idOf = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0]! : (value ?? ''));

function expressApp(
  make: typeof express | typeof express4,
  syntax: 'express5' | 'express4',
  settings: { readonly strict: boolean; readonly prefix: string },
) {
  return async (routes: readonly TableRoute[], gate: Gate, ran: (id: string, key: string) => void) => {
    const app = make();
    app.set('case sensitive routing', settings.strict);
    app.set('strict routing', settings.strict);
    const router = make.Router({ caseSensitive: settings.strict, strict: settings.strict });
    for (const route of routes)
      (router as unknown as Record<string, (path: string, handler: express.RequestHandler) => void>)[
        route.method.toLowerCase()
      ]!(pathOf(route, syntax), (req, res) => {
        ran(idOf(req.headers['x-probe-id']), route.key);
        res.json({ ran: route.key });
      });
    // Under a prefix, Express mounts both and strips the mount path from `req.url` itself.
    const use = app.use.bind(app) as (...handlers: unknown[]) => void;
    if (settings.prefix === '') use(tollgate(gate), router);
    else use(settings.prefix, tollgate(gate), router);
    return createServer(app);
  };
}

async function fastifyApp(
  routes: readonly TableRoute[],
  gate: Gate,
  ran: (id: string, key: string) => void,
  options: { readonly loose: boolean; readonly prefix: string },
): Promise<Server> {
  const app = Fastify(
    options.loose
      ? { routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, ignoreDuplicateSlashes: true } }
      : {},
  );
  await app.register(tollgatePlugin, gate);
  const register = (scope: FastifyInstance) => {
    for (const route of routes)
      scope.route({
        method: route.method as 'GET',
        url: pathOf(route, 'colon'),
        handler: async (request) => {
          ran(idOf(request.headers['x-probe-id']), route.key);
          return { ran: route.key };
        },
      });
  };
  await app.register(async (scope) => register(scope), { prefix: options.prefix });
  await app.ready();
  return app.server;
}

function honoApp(strict: boolean, prefix: string) {
  return async (routes: readonly TableRoute[], gate: Gate, ran: (id: string, key: string) => void) => {
    const api = new Hono(strict ? {} : { strict: false });
    for (const route of routes)
      api.on(route.method, pathOf(route, 'colon'), (c) => {
        ran(c.req.header('x-probe-id') ?? '', route.key);
        return c.json({ ran: route.key });
      });
    const app = new Hono(strict ? {} : { strict: false });
    app.route(prefix === '' ? '/' : prefix, api);
    const server = serve({
      fetch: withTollgate(app.fetch, gate, { clientAddress: null }),
      port: 0,
      hostname: '127.0.0.1',
    }) as Server;
    if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
    return server;
  };
}

// node:http has no router: this app's own is as lenient as any (letter case, slashes and
// percent-encoding ignored), the hardest case for the gate.
function nodeApp(prefix: string) {
  return async (routes: readonly TableRoute[], gate: Gate, ran: (id: string, key: string) => void) => {
    const patterns = routes.map((route) => {
      const body = route.segments
        .map((segment) =>
          segment.kind === 'static' ? segment.text : segment.kind === 'param' ? '[^/]+' : '.+',
        )
        .join('/');
      return { route, pattern: new RegExp(`^${prefix}/${body}$`, 'i') };
    });
    const guard = tollgate(gate);
    return createServer((req, res) =>
      guard(req, res, () => {
        let path = new URL(req.url!, 'http://x').pathname.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
        try {
          path = decodeURI(path);
        } catch {}
        const found = patterns.find(
          ({ route, pattern }) => route.method === req.method && pattern.test(path),
        );
        if (found === undefined) return void res.writeHead(404).end();
        ran(idOf(req.headers['x-probe-id']), found.route.key);
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ ran: found.route.key }));
      }),
    );
  };
}

/** Each router in the settings the issue names; `prefix` servers have the API under `/api`. */
export const SETUPS: readonly ServerSetup[] = [
  {
    name: 'Express 5 (default)',
    reads: { letterCase: true, trailingSlash: true },
    prefix: '',
    start: expressApp(express, 'express5', { strict: false, prefix: '' }),
  },
  {
    name: 'Express 5 (strict, caseSensitive)',
    reads: { letterCase: false, trailingSlash: false },
    prefix: '',
    start: expressApp(express, 'express5', { strict: true, prefix: '' }),
  },
  {
    name: 'Express 4 (default)',
    reads: { letterCase: true, trailingSlash: true },
    prefix: '',
    start: expressApp(express4, 'express4', { strict: false, prefix: '' }),
  },
  {
    name: 'Express 4 (strict, caseSensitive)',
    reads: { letterCase: false, trailingSlash: false },
    prefix: '',
    start: expressApp(express4, 'express4', { strict: true, prefix: '' }),
  },
  {
    name: 'Fastify 5 (default)',
    reads: { letterCase: false, trailingSlash: false },
    prefix: '',
    start: (r, g, ran) => fastifyApp(r, g, ran, { loose: false, prefix: '' }),
  },
  {
    name: 'Fastify 5 (caseSensitive false, ignoreTrailingSlash, ignoreDuplicateSlashes)',
    reads: { letterCase: true, trailingSlash: true },
    prefix: '',
    start: (r, g, ran) => fastifyApp(r, g, ran, { loose: true, prefix: '' }),
  },
  {
    name: 'Hono (default)',
    reads: { letterCase: false, trailingSlash: false },
    prefix: '',
    start: honoApp(true, ''),
  },
  {
    name: 'Hono (strict: false)',
    reads: { letterCase: false, trailingSlash: true },
    prefix: '',
    start: honoApp(false, ''),
  },
  {
    name: 'node:http (a lenient router of its own)',
    reads: { letterCase: true, trailingSlash: true },
    prefix: '',
    start: nodeApp(''),
  },
  {
    name: "Express 5 under app.use('/api')",
    reads: { letterCase: true, trailingSlash: true },
    prefix: '/api',
    start: expressApp(express, 'express5', { strict: false, prefix: '/api' }),
  },
  {
    name: "Fastify 5 (loose) with routes under prefix '/api', basePath '/api'",
    reads: { letterCase: true, trailingSlash: true },
    prefix: '/api',
    start: (r, g, ran) => fastifyApp(r, g, ran, { loose: true, prefix: '/api' }),
  },
  {
    name: "Hono (strict: false) with app.route('/api'), basePath '/api'",
    reads: { letterCase: false, trailingSlash: true },
    prefix: '/api',
    start: honoApp(false, '/api'),
  },
  {
    name: "node:http with basePath '/api'",
    reads: { letterCase: true, trailingSlash: true },
    prefix: '/api',
    start: nodeApp('/api'),
  },
];

/** Starts one setup on 127.0.0.1, port 0. */
export async function startProbeServer(
  setup: ServerSetup,
  routes: readonly TableRoute[],
): Promise<ProbeServer> {
  const probe: Probe = { gate: new Map(), ran: new Map() };
  // Express mounts strip their prefix before the gate sees the path: the gate's basePath stays ''.
  const basePath = setup.prefix !== '' && !setup.name.includes('app.use') ? setup.prefix : '';
  const server = await setup.start([...routes].sort(bySpecificity), probeGate(probe, basePath), (id, key) =>
    probe.ran.set(id, key),
  );
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    name: setup.name,
    port: (server.address() as AddressInfo).port,
    prefix: setup.prefix,
    probe,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

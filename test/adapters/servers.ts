// Real servers on 127.0.0.1, port 0, each with tollgate in front of the same little app:
// node:http, Express 5, Fastify 5, and Hono on @hono/node-server (and Express 4 for some suites).
// Each app answers CORS preflights itself (Hono with its own `cors` middleware, the others by
// hand) and routes errors to its framework's error path, recorded in `errors`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { serve } from '@hono/node-server';
import express from 'express';
import express4 from 'express4';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { tollgatePlugin } from '../../src/adapters/fastify.js';
import { withTollgate } from '../../src/adapters/fetch.js';
import { tollgate } from '../../src/adapters/node.js';
import type { Gate } from '../../src/index.js';

export const SERVER_KINDS = ['node', 'express', 'fastify', 'hono'] as const;
export type ServerKind = (typeof SERVER_KINDS)[number] | 'express4';

export interface RunningServer {
  readonly url: string;
  /** Requests that reached the app, in arrival order (method, path, epoch ms). */
  readonly arrivals: { method: string; path: string; at: number }[];
  /** Errors the framework's own error path received (Express error middleware, Fastify's and Hono's error handlers). */
  readonly errors: unknown[];
  close(): Promise<void>;
}

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE',
  'access-control-allow-headers': 'authorization',
};
const isPreflight = (method: string | undefined, header: unknown) =>
  method === 'OPTIONS' && typeof header === 'string';
const INTERNAL_ERROR = { message: 'Internal Server Error' };

/** What the app does, from the query: `status=304`, `burn=ms` of CPU, `wait=ms`, `hold=name`, `throw=1`, `reject=1`, `never=1`. */
export interface AppAnswer {
  readonly status: number;
  readonly body: string | null;
  /** `partial=1`: send the first bytes of the body, then nothing more (the client is to hang up). */
  readonly partial?: boolean;
}

const FIRST_BYTES = '{"partial":';

// Burns `ms` of this process's CPU time, not of wall time: on a loaded machine a wall-time loop
// gets a fraction of a core and would burn less than the test means.
function busy(ms: number): void {
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const end = cpuMs() + ms;
  while (cpuMs() < end) {
    // burn CPU: the gate charges it after the response
  }
}

// `hold=NAME`: the handler waits until the test calls `releaseHeld(NAME)`, so requests stay in
// flight for as long as the test needs, whatever the machine's load.
const held = new Map<string, { promise: Promise<void>; release: () => void }>();
const holdOf = (name: string) => {
  let gate = held.get(name);
  if (gate === undefined) {
    let release = () => {};
    const promise = new Promise<void>((resolve) => {
      release = resolve;
    });
    gate = { promise, release };
    held.set(name, gate);
  }
  return gate;
};

/** Lets every handler waiting on `hold=name` answer. */
export function releaseHeld(name: string): void {
  holdOf(name).release();
}

/** `body=1`: the handler reads the whole request body first (`read` gives it). */
export async function appAnswer(target: string, read?: () => Promise<unknown>): Promise<AppAnswer> {
  const query = new URL(target, 'http://x').searchParams;
  if (query.has('body')) await read?.();
  if (query.has('throw')) throw new Error('handler failed');
  if (query.has('reject')) await Promise.reject(new Error('handler rejected'));
  if (query.has('never')) await new Promise(() => {});
  if (query.has('burn')) busy(Number(query.get('burn')));
  if (query.has('wait')) await new Promise((resolve) => setTimeout(resolve, Number(query.get('wait'))));
  if (query.has('hold')) await holdOf(query.get('hold')!).promise;
  if (query.get('status') === '304') return { status: 304, body: null };
  if (query.has('partial')) return { status: 200, body: null, partial: true };
  return { status: 200, body: JSON.stringify({ ok: true }) };
}

// `throw` throws before the first await, as a synchronous handler would.
function answerOf(target: string, read?: () => Promise<unknown>): Promise<AppAnswer> {
  if (new URL(target, 'http://x').searchParams.has('throw')) throw new Error('handler failed');
  return appAnswer(target, read);
}

async function readAll(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _chunk of stream) {
    // read to the end
  }
}

async function* neverEnding(): AsyncGenerator<string> {
  yield FIRST_BYTES;
  await new Promise(() => {});
}

function listening(
  server: Server,
  arrivals: RunningServer['arrivals'],
  errors: unknown[],
): Promise<RunningServer> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        arrivals,
        errors,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

export async function startServer(kind: ServerKind, gate: Gate): Promise<RunningServer> {
  const arrivals: RunningServer['arrivals'] = [];
  const errors: unknown[] = [];
  const arrived = (method: string, path: string) => arrivals.push({ method, path, at: Date.now() });
  if (kind === 'node') {
    const guard = tollgate(gate);
    const server = createServer((req, res) =>
      guard(req, res, async () => {
        if (isPreflight(req.method, req.headers['access-control-request-method']))
          return void res.writeHead(204, CORS_HEADERS).end();
        arrived(req.method!, req.url!);
        const { status, body, partial } = await answerOf(req.url!, () => readAll(req));
        if (partial) res.writeHead(status).write(FIRST_BYTES);
        else
          res
            .writeHead(status, body === null ? {} : { 'content-type': 'application/json' })
            .end(body ?? undefined);
      }),
    );
    return listening(server, arrivals, errors);
  }
  if (kind === 'express' || kind === 'express4') {
    // Express 4's app takes the same middleware; its types differ only in their generics.
    const app = kind === 'express' ? express() : (express4() as unknown as express.Express);
    app.use(tollgate(gate));
    app.use((req: express.Request, res: express.Response, next: express.NextFunction) => {
      if (!isPreflight(req.method, req.headers['access-control-request-method'])) return next();
      res.set(CORS_HEADERS).status(204).end();
    });
    // Express 4 does not catch a rejected handler: the app passes it to `next` itself, as Express 4 apps must.
    app.use((req: express.Request, res: express.Response, next: express.NextFunction) => {
      arrived(req.method, req.originalUrl);
      return answerOf(req.originalUrl, () => readAll(req)).then(({ status, body, partial }) => {
        if (partial) res.status(status).write(FIRST_BYTES);
        else if (body === null) res.status(status).end();
        else res.status(status).type('application/json').send(body);
      }, next);
    });
    app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      errors.push(error);
      res.status(500).json(INTERNAL_ERROR);
    });
    return listening(createServer(app), arrivals, errors);
  }
  if (kind === 'fastify') {
    const app = Fastify();
    app.setErrorHandler((error, _request, reply) => {
      errors.push(error);
      return reply.code(500).send(INTERNAL_ERROR);
    });
    await app.register(tollgatePlugin, gate);
    app.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      url: '/*',
      handler: async (request, reply) => {
        if (isPreflight(request.method, request.headers['access-control-request-method']))
          return reply.code(204).headers(CORS_HEADERS).send();
        arrived(request.method, request.url);
        const { status, body, partial } = await answerOf(request.url);
        if (partial) return reply.code(status).send(Readable.from(neverEnding()));
        if (body === null) return reply.code(status).send();
        return reply.code(status).type('application/json').send(body);
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      arrivals,
      errors,
      close: async () => {
        app.server.closeAllConnections();
        await app.close();
      },
    };
  }
  const app = new Hono();
  app.onError((error, c) => {
    errors.push(error);
    return c.json(INTERNAL_ERROR, 500);
  });
  app.use('*', cors({ origin: '*', allowHeaders: ['authorization'] }));
  app.all('*', async (c) => {
    const url = new URL(c.req.url);
    arrived(c.req.method, url.pathname + url.search);
    const { status, body, partial } = await answerOf(url.pathname + url.search, () => c.req.text());
    if (partial)
      return new Response(
        new ReadableStream({
          start: (controller) => controller.enqueue(new TextEncoder().encode(FIRST_BYTES)),
        }),
        { status },
      );
    return new Response(body, {
      status,
      headers: body === null ? {} : { 'content-type': 'application/json' },
    });
  });
  const fetch = withTollgate(app.fetch, gate, {
    clientAddress: (_request, env: { incoming?: { socket: { remoteAddress?: string } } }) =>
      env?.incoming?.socket.remoteAddress,
  });
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise((resolve) => (server.listening ? resolve(null) : server.once('listening', resolve)));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    errors,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

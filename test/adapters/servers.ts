// Four real servers on 127.0.0.1, port 0, each with tollgate in front of the same little app:
// node:http, Express 5, Fastify 5, and Hono on @hono/node-server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { serve } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { tollgatePlugin } from '../../src/adapters/fastify.js';
import { withTollgate } from '../../src/adapters/fetch.js';
import { tollgate } from '../../src/adapters/node.js';
import type { Gate } from '../../src/index.js';

export const SERVER_KINDS = ['node', 'express', 'fastify', 'hono'] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];

export interface RunningServer {
  readonly url: string;
  /** Requests that reached the app, in arrival order (method, path, epoch ms). */
  readonly arrivals: { method: string; path: string; at: number }[];
  close(): Promise<void>;
}

/** What the app does, from the query: `status=304`, `burn=ms` of CPU, `wait=ms`, `throw=1`, `reject=1`, `never=1`. */
export interface AppAnswer {
  readonly status: number;
  readonly body: string | null;
  /** `partial=1`: send the first bytes of the body, then nothing more (the client is to hang up). */
  readonly partial?: boolean;
}

const FIRST_BYTES = '{"partial":';

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // burn CPU: the gate charges it after the response
  }
}

export async function appAnswer(target: string): Promise<AppAnswer> {
  const query = new URL(target, 'http://x').searchParams;
  if (query.has('throw')) throw new Error('handler failed');
  if (query.has('reject')) await Promise.reject(new Error('handler rejected'));
  if (query.has('never')) await new Promise(() => {});
  if (query.has('burn')) busy(Number(query.get('burn')));
  if (query.has('wait')) await new Promise((resolve) => setTimeout(resolve, Number(query.get('wait'))));
  if (query.get('status') === '304') return { status: 304, body: null };
  if (query.has('partial')) return { status: 200, body: null, partial: true };
  return { status: 200, body: JSON.stringify({ ok: true }) };
}

// `throw` throws before the first await, as a synchronous handler would.
function answerOf(target: string): Promise<AppAnswer> {
  if (new URL(target, 'http://x').searchParams.has('throw')) throw new Error('handler failed');
  return appAnswer(target);
}

async function* neverEnding(): AsyncGenerator<string> {
  yield FIRST_BYTES;
  await new Promise(() => {});
}

function listening(server: Server, arrivals: RunningServer['arrivals']): Promise<RunningServer> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        arrivals,
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
  const arrived = (method: string, path: string) => arrivals.push({ method, path, at: Date.now() });
  if (kind === 'node') {
    const guard = tollgate(gate);
    const server = createServer((req, res) =>
      guard(req, res, async () => {
        arrived(req.method!, req.url!);
        const { status, body, partial } = await answerOf(req.url!);
        if (partial) res.writeHead(status).write(FIRST_BYTES);
        else
          res
            .writeHead(status, body === null ? {} : { 'content-type': 'application/json' })
            .end(body ?? undefined);
      }),
    );
    return listening(server, arrivals);
  }
  if (kind === 'express') {
    const app = express();
    app.use(tollgate(gate));
    app.use(async (req, res) => {
      arrived(req.method, req.originalUrl);
      const { status, body, partial } = await answerOf(req.originalUrl);
      if (partial) res.status(status).write(FIRST_BYTES);
      else if (body === null) res.status(status).end();
      else res.status(status).type('application/json').send(body);
    });
    return listening(createServer(app), arrivals);
  }
  if (kind === 'fastify') {
    const app = Fastify();
    await app.register(tollgatePlugin, gate);
    app.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/*',
      handler: async (request, reply) => {
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
      close: async () => {
        app.server.closeAllConnections();
        await app.close();
      },
    };
  }
  const app = new Hono();
  app.all('*', async (c) => {
    const url = new URL(c.req.url);
    arrived(c.req.method, url.pathname + url.search);
    const { status, body, partial } = await answerOf(url.pathname + url.search);
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
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

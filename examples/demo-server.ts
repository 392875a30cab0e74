// A small in-memory stand-in of the service behind tollgate: repository variables, notifications
// and issue events. `npm run demo:server` starts it; the Octokit tests start it with small limits.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createGate, createLimiter, createMemoryStore, type Gate, type LimitsStore } from 'tollgate';
import type { LimitsConfig } from 'tollgate/limits';
import { tollgate } from 'tollgate/node';
import { createRedisStore } from 'tollgate/redis';
import { lookupToken } from './demo-tokens.js';

export interface DemoServerOptions {
  /** Default 0: any free port. */
  readonly port?: number;
  /** Default: the shipped limits. */
  readonly limits?: LimitsConfig;
  /** A Redis (or Valkey) URL: the limits live there, shared with every other instance. Default: in memory. */
  readonly redis?: string;
}

export interface DemoServer {
  readonly url: string;
  readonly gate: Gate;
  /** Every request that reached the server (before tollgate), with its arrival time in epoch ms. */
  readonly requests: { readonly method: string; readonly path: string; readonly at: number }[];
  close(): Promise<void>;
}

interface Variable {
  name: string;
  value: string;
  created_at: string;
  updated_at: string;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

function createApp() {
  const variables = new Map<string, Map<string, Variable>>();
  const started = new Date().toUTCString();
  const notifications = [{ id: '1', unread: true, reason: 'mention', updated_at: new Date().toISOString() }];
  let notificationsModified = started;
  const events = [
    { id: 1, event: 'closed', created_at: '2026-11-01T10:00:00Z' },
    { id: 2, event: 'labeled', created_at: '2026-11-02T11:30:00Z' },
  ];

  async function readBody(req: IncomingMessage): Promise<Record<string, string>> {
    let text = '';
    for await (const chunk of req) text += chunk;
    try {
      return text === '' ? {} : (JSON.parse(text) as Record<string, string>);
    } catch {
      return {};
    }
  }

  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://demo');
    const parts = url.pathname.split('/').slice(1);
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (url.pathname === '/notifications') {
      if (method === 'PUT') {
        for (const n of notifications) n.unread = false;
        notificationsModified = new Date().toUTCString();
        return json(res, 205, {});
      }
      // Polling rule 2: the same Last-Modified back means nothing changed; the 304 is refunded.
      if (req.headers['if-modified-since'] === notificationsModified) return void res.writeHead(304).end();
      res.setHeader('last-modified', notificationsModified);
      return json(res, 200, notifications);
    }
    if (parts[0] === 'repos' && parts[3] === 'issues' && parts[4] === 'events') {
      if (parts[5] === undefined) return json(res, 200, events);
      const event = events.find((e) => String(e.id) === parts[5]);
      return event === undefined ? json(res, 404, { message: 'Not Found' }) : json(res, 200, event);
    }
    if (parts[0] === 'repos' && parts[3] === 'actions' && parts[4] === 'variables') {
      const repo = `${parts[1]}/${parts[2]}`;
      const list = variables.get(repo) ?? new Map<string, Variable>();
      variables.set(repo, list);
      const name = parts[5];
      if (name === undefined && method === 'GET')
        return json(res, 200, { total_count: list.size, variables: [...list.values()] });
      if (name === undefined && method === 'POST') {
        const { name: newName = '', value = '' } = await readBody(req);
        if (newName === '' || list.has(newName)) return json(res, 422, { message: 'Validation Failed' });
        const now = new Date().toISOString();
        list.set(newName, { name: newName, value, created_at: now, updated_at: now });
        return json(res, 201, {});
      }
      const variable = name === undefined ? undefined : list.get(name);
      if (variable === undefined) return json(res, 404, { message: 'Not Found' });
      if (method === 'GET') return json(res, 200, variable);
      if (method === 'DELETE') {
        list.delete(variable.name);
        return void res.writeHead(204).end();
      }
      if (method === 'PATCH') {
        const { value } = await readBody(req);
        if (value !== undefined) variable.value = value;
        variable.updated_at = new Date().toISOString();
        return void res.writeHead(204).end();
      }
    }
    // Endpoints of the table this stand-in does not implement.
    return json(res, 501, { message: `${req.method} ${url.pathname} is not implemented by the demo server` });
  };
}

/**
 * Starts the demo server on 127.0.0.1: tollgate (memory store) in front of the in-memory app.
 * Requests for private resources are private by default; `?visibility=public` is not read: the
 * demo treats every repository as private, as the service would for a private one.
 */
export async function startDemoServer(options: DemoServerOptions = {}): Promise<DemoServer> {
  const redis = options.redis === undefined ? null : new Redis(options.redis);
  const store = redis === null ? createMemoryStore() : createRedisStore({ client: redis, onFailure: 'fallback' });
  const limiter = createLimiter<LimitsStore>({
    store,
    ...(options.limits === undefined ? {} : { config: options.limits }),
  });
  const gate = createGate({ limiter, lookupToken });
  const guard = tollgate(gate);
  const app = createApp();
  const requests: DemoServer['requests'] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', at: Date.now() });
    void guard(req, res, () => app(req, res));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    gate,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          redis?.disconnect();
          resolve();
        });
      }),
  };
}

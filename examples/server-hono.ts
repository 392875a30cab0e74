// Hono on @hono/node-server (Bun, Deno and workers take `fetch` the same way)
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { LookupToken } from 'tollgate';
import { withTollgate } from 'tollgate/fetch';

const lookupToken: LookupToken = (secret) =>
  secret === 's3cret'
    ? { kind: 'fine-grained', permissions: { issues: 'read' }, repositories: 'all', user: 'octocat' }
    : null;
const app = new Hono();
app.get('/repos/:owner/:repo/issues/events', (c) => c.json([]));
type Env = { incoming: { socket: { remoteAddress?: string } } };
// A Web Request carries no client address: say where it comes from (here, Node's socket).
const clientAddress = (_request: Request, env: Env) => env.incoming.socket.remoteAddress;
const guarded = withTollgate(app.fetch, { lookupToken }, { clientAddress });
serve({ fetch: guarded, port: Number(process.env.PORT ?? 3000) });

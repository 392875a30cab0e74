// tollgate around a Hono app, served by @hono/node-server. Run: npx tsx examples/server-hono.ts
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { withTollgate } from 'tollgate/fetch';
import { lookupToken } from './demo-tokens.js';

const app = new Hono();
app.get('/repos/:owner/:repo/issues/events', (c) => c.json([]));
const fetch = withTollgate(app.fetch, { lookupToken }, {
  clientAddress: (_request, env: { incoming?: { socket: { remoteAddress?: string } } }) => env.incoming?.socket.remoteAddress,
});
serve({ fetch, port: Number(process.env.PORT ?? 3000) }, () => console.log('listening on http://localhost:3000'));

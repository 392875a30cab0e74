// tollgate as a Fastify 5 plugin. Run: npx tsx examples/server-fastify.ts
import Fastify from 'fastify';
import { tollgatePlugin } from 'tollgate/fastify';
import { lookupToken } from './demo-tokens.js';

const app = Fastify();
await app.register(tollgatePlugin, { lookupToken });
app.get('/repos/:owner/:repo/issues/events', async () => []);
await app.listen({ port: Number(process.env.PORT ?? 3000) });
console.log('listening on http://localhost:3000');

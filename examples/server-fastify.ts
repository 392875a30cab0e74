// Fastify 5
import Fastify from 'fastify';
import type { LookupToken } from 'tollgate';
import { tollgatePlugin } from 'tollgate/fastify';

const lookupToken: LookupToken = (secret) =>
  secret === 's3cret'
    ? { kind: 'fine-grained', permissions: { issues: 'read' }, repositories: 'all', user: 'octocat' }
    : null;
const app = Fastify();
await app.register(tollgatePlugin, { lookupToken });
app.get('/repos/:owner/:repo/issues/events', async () => []);
await app.listen({ port: Number(process.env.PORT ?? 3000) });

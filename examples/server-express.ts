// Express 5 (Connect the same way)
import express from 'express';
import type { LookupToken } from 'tollgate';
import { tollgate } from 'tollgate/node';

const lookupToken: LookupToken = (secret) =>
  secret === 's3cret'
    ? { kind: 'fine-grained', permissions: { issues: 'read' }, repositories: 'all', user: 'octocat' }
    : null;
const app = express();
app.use(tollgate({ lookupToken }));
app.get('/repos/:owner/:repo/issues/events', (_req, res) => {
  res.json([]);
});
app.listen(Number(process.env.PORT ?? 3000));

// node:http
import { createServer } from 'node:http';
import type { LookupToken } from 'tollgate';
import { tollgate } from 'tollgate/node';

// Which token a secret stands for: here one demo secret; yours reads your own token store.
const lookupToken: LookupToken = (secret) =>
  secret === 's3cret'
    ? { kind: 'fine-grained', permissions: { issues: 'read' }, repositories: 'all', user: 'octocat' }
    : null;
const guard = tollgate({ lookupToken });
const server = createServer((req, res) => guard(req, res, () => res.end('[]')));
server.listen(Number(process.env.PORT ?? 3000));

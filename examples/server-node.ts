// tollgate in front of a plain node:http server. Run: npx tsx examples/server-node.ts
import { createServer } from 'node:http';
import { tollgate } from 'tollgate/node';
import { lookupToken } from './demo-tokens.js';

const guard = tollgate({ lookupToken });
const server = createServer((req, res) =>
  guard(req, res, () => res.writeHead(200, { 'content-type': 'application/json' }).end('[]')),
);
server.listen(Number(process.env.PORT ?? 3000), () => console.log('listening on http://localhost:3000'));

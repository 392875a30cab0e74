// A body parser before the gate: the request's stream has ended (and Node destroyed it) before an
// asynchronous token lookup answers. The client is still there and must be served; before 0.2.0
// the node adapter took the ended stream for a client gone, freed the slot and answered nothing.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tollgate } from '../../src/adapters/node.js';
import type { Gate } from '../../src/index.js';
import { inFlight, testGate } from './test-gate.js';

let gate: Gate;
let url: string;
let close: () => void;
beforeAll(async () => {
  gate = testGate();
  const app = express();
  app.use(express.json());
  app.use(tollgate(gate));
  app.post('/repos/:owner/:repo/issues', (req, res) => {
    res.status(201).json({ title: (req.body as { title: string }).title });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => {
    server.closeAllConnections();
    server.close();
  };
});
afterAll(() => close());

it('serves a request whose body was read before the gate decided, and settles its slot', async () => {
  const secret = `fine-grained:body-${Date.now()}:issues=write`;
  const response = await fetch(`${url}/repos/octo/app/issues`, {
    method: 'POST',
    headers: { authorization: `Bearer slow:${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'found a bug' }),
    signal: AbortSignal.timeout(5000),
  });
  expect(response.status).toBe(201);
  expect(await response.json()).toEqual({ title: 'found a bug' });
  expect(response.headers.get('x-ratelimit-used')).toBe('1');
  await expect.poll(() => inFlight(gate, secret)).toBe(0);
});

// No slot ever leaks, whatever the client does with its connection: pipelined requests and a
// hang-up, a body cut off in the middle, a hang-up while the gate is still deciding. Checked through
// `GET /rate_limit` (refused while 100 slots are held) and the store's own state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gate } from '../../src/index.js';
import { defaultLimits } from '../../src/limits/default-limits.js';
import { requestText, sendRaw } from './raw-client.js';
import { type RunningServer, type ServerKind, startServer } from './servers.js';
import { inFlight, testGate } from './test-gate.js';

const EVENTS = '/repos/octo/app/issues/events';
let users = 0;
const fresh = (kind: string, grants: string) => `${kind}:slots${++users}-${Date.now()}:${grants}`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function slotContract(kind: ServerKind): void {
  describe(`slots on ${kind}`, () => {
    let gate: Gate;
    let server: RunningServer;
    beforeAll(async () => {
      // The shipped limits: 100 slots per identity, and primary limits no case reaches.
      gate = testGate({}, defaultLimits());
      server = await startServer(kind, gate);
    });
    afterAll(() => server.close());

    it('frees every slot of 30 connections that each pipeline 5 requests and hang up', async () => {
      const secret = fresh('installation', 'issues=read');
      const five = requestText('GET', `${EVENTS}?wait=1500`, secret).repeat(5);
      const sockets = await Promise.all(Array.from({ length: 30 }, () => sendRaw(server.url, five)));
      // 150 requests: 100 admitted and held by their handlers, 50 refused (concurrency).
      await expect.poll(() => inFlight(gate, secret), { timeout: 5000, interval: 20 }).toBe(100);
      for (const socket of sockets) socket.destroy();
      await expect.poll(() => inFlight(gate, secret), { timeout: 6000, interval: 50 }).toBe(0);
      // Refused (secondary, concurrency) while 100 slots are held; answered once they are free.
      const status = await fetch(`${server.url}/rate_limit`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(status.status).toBe(200);
      expect(status.headers.get('x-ratelimit-resource')).toBe('core');
      await status.arrayBuffer();
    });

    it('frees the slot of a request whose client hangs up in the middle of its body', async () => {
      const secret = fresh('fine-grained', 'issues=write');
      const headers = 'Content-Type: application/json\r\nContent-Length: 1000\r\n';
      const socket = await sendRaw(
        server.url,
        `${requestText('POST', '/repos/octo/app/issues?body=1', secret, headers)}{"title":"cut`,
      );
      await expect.poll(() => inFlight(gate, secret), { timeout: 3000 }).toBe(1);
      socket.destroy();
      await expect.poll(() => inFlight(gate, secret), { timeout: 3000 }).toBe(0);
    });

    it('frees the slots of pipelined requests whose client hangs up while the gate is still deciding', async () => {
      const secret = fresh('fine-grained', 'issues=read');
      const before = server.arrivals.length;
      const socket = await sendRaw(server.url, requestText('GET', EVENTS, `slow:${secret}`).repeat(5));
      await pause(50);
      socket.destroy();
      // The lookup answers after 300 ms: then each request is admitted and at once freed.
      await pause(450);
      await expect.poll(() => inFlight(gate, secret), { timeout: 3000 }).toBe(0);
      // A fetch runtime is not told that a queued request's client left (@hono/node-server aborts
      // a request's signal only when its own response closes): its handler runs, and its slot is
      // freed when the response ends.
      if (kind !== 'hono') expect(server.arrivals.length).toBe(before);
    });
  });
}

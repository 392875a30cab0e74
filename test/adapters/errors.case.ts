// Errors go where the framework sends them, `onError` first: a rejecting token lookup, a throwing
// `resolveContext`, a handler that throws or rejects. Express and Connect get `next(err)` (their
// error middleware), Fastify its error handler, Hono its `onError`; plain node:http and the fetch
// wrapper answer 500 and write the error to `console.error`. Never a silent 500.
import { afterAll, afterEach, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import type { Gate, RequestFacts } from '../../src/index.js';
import { type RunningServer, type ServerKind, startServer } from './servers.js';
import { inFlight, testGate } from './test-gate.js';

const EVENTS = '/repos/octo/app/issues/events';
let users = 0;
const fresh = () => `fine-grained:errors${++users}-${Date.now()}:issues=read`;

/** Where each server sends an error the gate raises (the lookup, resolveContext). */
const GATE_ERROR_PATH: Record<ServerKind, 'framework' | 'console'> = {
  node: 'console',
  express: 'framework',
  express4: 'framework',
  fastify: 'framework',
  hono: 'console',
};
/** Where each server sends a handler's error: node:http's handler runs inside tollgate's middleware. */
const HANDLER_ERROR_PATH: Record<ServerKind, 'framework' | 'console'> = {
  ...GATE_ERROR_PATH,
  hono: 'framework',
};

export function errorContract(kind: ServerKind): void {
  describe(`errors on ${kind}`, () => {
    let server: RunningServer;
    let gate: Gate;
    /** What `onError` was told, and how many errors the framework had received by then. */
    const told: { error: unknown; facts: RequestFacts; frameworkErrorsBefore: number }[] = [];
    let consoleErrors: MockInstance<typeof console.error> | undefined;
    beforeAll(async () => {
      gate = testGate({
        onError: (error, facts) => told.push({ error, facts, frameworkErrorsBefore: server.errors.length }),
        resolveContext: (_endpoint, _params, facts) => {
          if (facts.header('x-test-context') === 'throw') throw new Error('context lookup failed');
          return { visibility: 'private' };
        },
      });
      server = await startServer(kind, gate);
    });
    afterAll(() => server.close());
    afterEach(() => {
      told.length = 0;
      server.errors.length = 0;
      consoleErrors?.mockRestore();
    });
    const captureConsole = () => {
      // Captured, not replaced: the test reads what the adapter wrote.
      consoleErrors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    };

    const expectErrorPath = (path: 'framework' | 'console', message: string) => {
      const error = told[0]!.error as Error;
      expect(error.message).toBe(message);
      if (path === 'framework') {
        expect(server.errors).toEqual([error]);
        // `onError` ran first: the framework had not yet seen the error.
        expect(told[0]!.frameworkErrorsBefore).toBe(0);
      } else {
        expect(server.errors).toEqual([]);
        expect(consoleErrors!.mock.calls.some((call) => call.includes(error))).toBe(true);
      }
    };

    it('sends a rejecting token lookup to onError, then to the framework’s error path, and never to the handler', async () => {
      captureConsole();
      const before = server.arrivals.length;
      const response = await fetch(server.url + EVENTS, { headers: { authorization: 'Bearer broken' } });
      expect(response.status).toBe(500);
      await response.arrayBuffer();
      expect(told).toHaveLength(1);
      expect(told[0]!.facts.target).toBe(EVENTS);
      expectErrorPath(GATE_ERROR_PATH[kind], 'token store down');
      expect(server.arrivals.length).toBe(before);
    });

    it('sends a throwing resolveContext to onError, then to the framework’s error path', async () => {
      captureConsole();
      const before = server.arrivals.length;
      const response = await fetch(server.url + EVENTS, {
        headers: { authorization: `Bearer ${fresh()}`, 'x-test-context': 'throw' },
      });
      expect(response.status).toBe(500);
      await response.arrayBuffer();
      expect(told).toHaveLength(1);
      expectErrorPath(GATE_ERROR_PATH[kind], 'context lookup failed');
      expect(server.arrivals.length).toBe(before);
    });

    for (const [fault, message] of [
      ['throw', 'handler failed'],
      ['reject', 'handler rejected'],
    ] as const)
      it(`sends a handler that ${fault}s to the framework’s error path and frees its slot`, async () => {
        captureConsole();
        const secret = fresh();
        const response = await fetch(`${server.url}${EVENTS}?${fault}=1`, {
          headers: { authorization: `Bearer ${secret}` },
        });
        expect(response.status).toBe(500);
        expect(response.headers.get('x-ratelimit-limit')).toBe('6');
        await response.arrayBuffer();
        if (HANDLER_ERROR_PATH[kind] === 'framework') {
          expect((server.errors[0] as Error).message).toBe(message);
          // The framework caught it before tollgate could: onError is not told.
          expect(told).toEqual([]);
        } else {
          expect(told.map(({ error }) => (error as Error).message)).toEqual([message]);
          expectErrorPath('console', message);
        }
        await expect.poll(() => inFlight(gate, secret)).toBe(0);
      });
  });
}

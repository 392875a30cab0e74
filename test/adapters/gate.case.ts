// The contract every adapter must keep, run against each real server: the same statuses, headers
// and bodies for every answer, and no slot left in flight.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gate } from '../../src/index.js';
import { defaultLimits } from '../../src/limits/default-limits.js';
import { type RunningServer, releaseHeld, type ServerKind, startServer } from './servers.js';
import { inFlight, testGate } from './test-gate.js';

let users = 0;
/** A secret of a user no other case uses, so each case starts with fresh limits. */
function fresh(kind: 'fine-grained' | 'classic' | 'installation', grants: string, repos?: string): string {
  users++;
  return `${kind}:u${users}-${Date.now()}:${grants}${repos === undefined ? '' : `:${repos}`}`;
}

const EVENTS = '/repos/octo/app/issues/events';

export function gateContract(kind: ServerKind): void {
  describe(`the gate on ${kind}`, () => {
    let gate: Gate;
    let server: RunningServer;
    beforeAll(async () => {
      gate = testGate();
      server = await startServer(kind, gate);
    });
    afterAll(() => server.close());

    const call = (path: string, secret?: string, init: RequestInit & { visibility?: string } = {}) => {
      const headers = new Headers(init.headers);
      if (secret !== undefined) headers.set('authorization', `Bearer ${secret}`);
      if (init.visibility !== undefined) headers.set('x-test-visibility', init.visibility);
      return fetch(server.url + path, { ...init, headers });
    };
    const bodyOf = async (response: Response) => JSON.parse(await response.text()) as Record<string, unknown>;

    it('passes an allowed request on, with the rate-limit and permission headers', async () => {
      const response = await call(EVENTS, fresh('fine-grained', 'issues=read'));
      expect(response.status).toBe(200);
      expect(await bodyOf(response)).toEqual({ ok: true });
      expect(response.headers.get('x-ratelimit-limit')).toBe('6');
      expect(response.headers.get('x-ratelimit-remaining')).toBe('5');
      expect(response.headers.get('x-ratelimit-resource')).toBe('core');
      expect(response.headers.get('x-accepted-service-permissions')).toBe('issues=read');
    });

    it('answers 401 for credentials it does not know, and for a malformed Authorization header', async () => {
      for (const authorization of ['Bearer nobody', 'Digest abc']) {
        const response = await fetch(server.url + EVENTS, { headers: { authorization } });
        expect(response.status).toBe(401);
        expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(await bodyOf(response)).toMatchObject({ message: 'Bad credentials', status: '401' });
      }
    });

    it('answers each refusal of the policy with its status, body and headers', async () => {
      const cases: [string, string | undefined, number, RegExp, Record<string, string>, string?][] = [
        ['/repos/octo/app/issues', undefined, 401, /^Requires authentication$/, {}],
        [EVENTS, fresh('fine-grained', 'issues=read', 'octo/other'), 404, /^Not Found$/, {}],
        [
          '/notifications',
          fresh('fine-grained', 'issues=read'),
          403,
          /does not accept fine-grained tokens/,
          {},
        ],
        [
          EVENTS,
          fresh('fine-grained', 'contents=read'),
          403,
          /needs permission `issues=read`/,
          { 'x-accepted-service-permissions': 'issues=read' },
        ],
        [
          '/repos/octo/app/actions/variables',
          fresh('classic', 'gist'),
          403,
          /needs scope `repo`/,
          { 'x-accepted-oauth-scopes': 'repo', 'x-oauth-scopes': 'gist' },
          'public',
        ],
        [EVENTS, fresh('classic', 'repo'), 403, /not shown by the specification/, {}],
      ];
      for (const [path, secret, status, message, headers, visibility] of cases) {
        const response = await call(path, secret, {
          method: path.endsWith('/issues') ? 'POST' : 'GET',
          ...(visibility === undefined ? {} : { visibility }),
        });
        expect([path, response.status]).toEqual([path, status]);
        const body = await bodyOf(response);
        expect(body.message).toMatch(message);
        expect(body.status).toBe(String(status));
        for (const [name, value] of Object.entries(headers)) expect(response.headers.get(name)).toBe(value);
        if (secret !== undefined) expect(response.headers.get('x-ratelimit-used')).toBe('1');
      }
    });

    it('refuses an unsupported API version with 400', async () => {
      const response = await call(EVENTS, fresh('fine-grained', 'issues=read'), {
        headers: { 'x-service-api-version': '1999-01-01' },
      });
      expect(response.status).toBe(400);
      expect((await bodyOf(response)).message).toMatch(/unsupported API version `1999-01-01`/);
    });

    it('refuses a bad path with 400 and an unknown endpoint with 404, charging nothing', async () => {
      const secret = fresh('fine-grained', 'issues=read');
      const bad = await call('/repos/octo//issues/events', secret);
      expect(bad.status).toBe(400);
      expect((await bodyOf(bad)).message).toMatch(/bad path/);
      const unknown = await call('/nowhere/at/all', secret);
      expect(unknown.status).toBe(404);
      expect(await bodyOf(unknown)).toMatchObject({ message: 'Not Found', status: '404' });
      expect((await call(EVENTS, secret)).headers.get('x-ratelimit-used')).toBe('1');
    });

    it('passes an unknown endpoint through when configured, charging nothing (it was charged before 0.2.0)', async () => {
      const open = await startServer(kind, testGate({ unknownEndpoint: 'pass-through' }));
      try {
        const response = await fetch(`${open.url}/nowhere/at/all`, {
          headers: { authorization: `Bearer ${fresh('classic', '')}` },
        });
        expect(response.status).toBe(200);
        expect(response.headers.get('x-ratelimit-used')).toBeNull();
      } finally {
        await open.close();
      }
    });

    it('answers HEAD like GET, without a body', async () => {
      const response = await call(EVENTS, fresh('fine-grained', 'issues=read'), { method: 'HEAD' });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('');
      expect(response.headers.get('x-ratelimit-remaining')).toBe('5');
    });

    it('refuses past the primary limit with remaining 0 and no retry-after, and the app sees nothing', async () => {
      const secret = fresh('fine-grained', 'issues=read');
      for (let i = 0; i < 6; i++) expect((await call(EVENTS, secret)).status).toBe(200);
      const before = server.arrivals.length;
      const response = await call(EVENTS, secret);
      expect(response.status).toBe(403);
      expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(response.headers.get('retry-after')).toBeNull();
      expect((await bodyOf(response)).message).toMatch(/rate limit/i);
      expect(server.arrivals.length).toBe(before);
    });

    it('refuses past the REST points with the secondary answer and retry-after', async () => {
      const secret = fresh('classic', 'notifications');
      for (let i = 0; i < 4; i++)
        expect((await call('/repos/octo/app/notifications', secret, { method: 'PUT' })).status).toBe(200);
      const response = await call('/repos/octo/app/notifications', secret, { method: 'PUT' });
      expect(response.status).toBe(403);
      expect((await bodyOf(response)).message).toMatch(/secondary rate limit \(REST points/);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('refuses the fourth content-creating request in a minute', async () => {
      const secret = fresh('fine-grained', 'issues=write');
      for (let i = 0; i < 3; i++)
        expect((await call('/repos/octo/app/issues', secret, { method: 'POST' })).status).toBe(200);
      const response = await call('/repos/octo/app/issues', secret, { method: 'POST' });
      expect(response.status).toBe(403);
      expect((await bodyOf(response)).message).toMatch(/content creation per minute/);
    });

    it('charges the handler’s CPU after the response, then refuses while the CPU bucket is in debt', async () => {
      const secret = fresh('fine-grained', 'issues=read');
      // 30 ms, then 80 ms: the second is admitted (about 30 of 100 ms spent), then the CPU counted
      // is at or over the ceiling. The charge is the process's CPU (every thread), which on a busy
      // machine can read about twice the handler's own burn: 30 ms leaves room for that.
      expect((await call(`${EVENTS}?burn=30`, secret)).status).toBe(200);
      expect((await call(`${EVENTS}?burn=80`, secret)).status).toBe(200);
      const response = await call(EVENTS, secret);
      expect(response.status).toBe(403);
      expect((await bodyOf(response)).message).toMatch(/secondary rate limit \(CPU time\)/);
    });

    it('answers GET /rate_limit itself, counting no primary request', async () => {
      const secret = fresh('fine-grained', 'issues=read');
      await call(EVENTS, secret);
      for (let i = 0; i < 2; i++) {
        const response = await call('/rate_limit', secret);
        expect(response.status).toBe(200);
        const body = (await bodyOf(response)) as { resources: { core: { limit: number; used: number } } };
        expect(body.resources.core).toMatchObject({ limit: 6, used: 1 });
      }
      expect(server.arrivals.some((arrival) => arrival.path === '/rate_limit')).toBe(false);
    });

    it('refunds a 304 from the handler', async () => {
      const secret = fresh('fine-grained', 'issues=read');
      expect((await call(`${EVENTS}?status=304`, secret)).status).toBe(304);
      const response = await call(EVENTS, secret);
      expect(response.headers.get('x-ratelimit-used')).toBe('1');
    });

    it('adds X-Poll-Interval and Last-Modified to GET /notifications', async () => {
      const response = await call('/notifications', fresh('classic', 'notifications'));
      expect(response.status).toBe(200);
      expect(response.headers.get('x-poll-interval')).toBe('60');
      expect(new Date(response.headers.get('last-modified')!).getTime()).toBeGreaterThan(0);
    });

    it('keeps the headers on the handler’s own error answer, and frees the slot when it throws or rejects', async () => {
      for (const fault of ['throw', 'reject']) {
        const secret = fresh('fine-grained', 'issues=read');
        const response = await call(`${EVENTS}?${fault}=1`, secret);
        expect([fault, response.status]).toEqual([fault, 500]);
        expect(response.headers.get('x-ratelimit-limit')).toBe('6');
        await response.arrayBuffer();
        await expect.poll(() => inFlight(gate, secret)).toBe(0);
      }
    });

    it('frees the slot of a request whose client gives up before any answer', async () => {
      const secret = fresh('fine-grained', 'issues=read');
      const controller = new AbortController();
      const pending = call(`${EVENTS}?never=1`, secret, { signal: controller.signal });
      await expect.poll(() => inFlight(gate, secret)).toBe(1);
      controller.abort();
      await expect(pending).rejects.toThrow();
      await expect.poll(() => inFlight(gate, secret)).toBe(0);
    });

    it('frees the slot of a request whose client hangs up in the middle of the response', async () => {
      const secret = fresh('fine-grained', 'issues=read');
      const controller = new AbortController();
      const response = await call(`${EVENTS}?partial=1`, secret, { signal: controller.signal });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      let received = '';
      while (received.length < '{"partial":'.length) {
        const { done, value } = await reader.read();
        if (done) break;
        received += new TextDecoder().decode(value);
      }
      expect(received).toBe('{"partial":');
      expect(await inFlight(gate, secret)).toBe(1);
      controller.abort();
      await expect.poll(() => inFlight(gate, secret)).toBe(0);
    });

    it('answers 500 when the gate itself fails, and the handler never sees the request', async () => {
      const before = server.arrivals.length;
      const response = await call(EVENTS, 'broken');
      expect(response.status).toBe(500);
      expect(server.arrivals.length).toBe(before);
    });

    it('frees the slot of a request whose client leaves while the gate is still deciding', async () => {
      const secret = fresh('fine-grained', 'issues=read');
      const before = server.arrivals.length;
      const controller = new AbortController();
      const pending = call(EVENTS, `slow:${secret}`, { signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 50));
      controller.abort();
      await expect(pending).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await inFlight(gate, secret)).toBe(0);
      expect(server.arrivals.length).toBe(before);
    });

    it('admits exactly 100 of 200 concurrent requests, refuses the rest as secondary, and frees every slot', async () => {
      // The shipped limits: 200 requests are within the primary limit and the points.
      const shippedGate = testGate({}, defaultLimits());
      const shippedServer = await startServer(kind, shippedGate);
      const secret = fresh('installation', 'issues=read');
      // The admitted requests are held in the handler until every refusal has come back, so none
      // ends (freeing its slot) while the others are still arriving, however slow the machine.
      const hold = `concurrency-${kind}`;
      let answered = 0;
      const pending = Array.from({ length: 200 }, () =>
        fetch(`${shippedServer.url}${EVENTS}?hold=${hold}`, {
          headers: { authorization: `Bearer ${secret}` },
        }).then((response) => {
          answered++;
          return response;
        }),
      );
      try {
        await expect.poll(() => answered, { timeout: 20_000 }).toBe(100);
      } finally {
        releaseHeld(hold);
      }
      const responses = await Promise.all(pending);
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(100);
      const refused = responses.filter((response) => response.status === 403);
      expect(refused).toHaveLength(100);
      for (const response of refused)
        expect((await bodyOf(response)).message).toMatch(/secondary rate limit \(concurrent requests\)/);
      await Promise.all(responses.map((response) => response.arrayBuffer().catch(() => null)));
      await expect.poll(() => inFlight(shippedGate, secret)).toBe(0);
      await shippedServer.close();
    });
  });
}

// The conventions server authors know, on each real server: pass-through and `skip` charge
// nothing, CORS preflights reach the application's CORS handling, `onDecision` sees every answer
// and may replace a refusal's body, IETF RateLimit headers, and a documentation link per refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Decision, Gate, Verdict } from '../../src/index.js';
import { type RunningServer, type ServerKind, startServer } from './servers.js';
import { testGate, tokenOfSecret } from './test-gate.js';

const EVENTS = '/repos/octo/app/issues/events';
let users = 0;
const fresh = (kind: string, grants: string) => `${kind}:hooks${++users}-${Date.now()}:${grants}`;
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
const PREFLIGHT = { origin: 'https://app.example', 'access-control-request-method': 'POST' };

export function hookContract(kind: ServerKind): void {
  describe(`hooks and headers on ${kind}`, () => {
    let gate: Gate;
    let server: RunningServer;
    const seen: { decision: Decision | null; verdict: Verdict | null; target: string }[] = [];
    beforeAll(async () => {
      gate = testGate({
        unknownEndpoint: 'pass-through',
        skip: (facts) => facts.target.startsWith('/static/'),
        standardHeaders: 'draft-8',
        onDecision: (decision, verdict, facts) => {
          seen.push({ decision, verdict, target: facts.target });
          if (decision?.reason === 'insufficient_permission')
            return { error: 'missing permission', see: 'admin' };
          return undefined;
        },
        documentationUrls: {
          authentication: 'https://docs.test/auth',
          rateLimits: 'https://docs.test/limits',
        },
      });
      server = await startServer(kind, gate);
    });
    afterAll(() => server.close());
    const stateOf = (secret: string) =>
      gate.limiter.store.read(gate.limiter.identify(tokenOfSecret(secret)!).key);

    it('passes an unknown endpoint through without charging anything, anonymous callers past their 60 included', async () => {
      for (let round = 0; round < 7; round++) {
        const responses = await Promise.all(Array.from({ length: 10 }, () => fetch(`${server.url}/healthz`)));
        for (const response of responses) {
          expect(response.status).toBe(200);
          expect(response.headers.get('x-ratelimit-limit')).toBeNull();
          await response.arrayBuffer();
        }
      }
      const secret = fresh('fine-grained', 'issues=read');
      expect((await fetch(`${server.url}/nowhere/at/all`, { headers: bearer(secret) })).status).toBe(200);
      // No store call at all: the identity has no state.
      expect(await stateOf(secret)).toBeUndefined();
      const counted = await fetch(server.url + EVENTS, { headers: bearer(secret) });
      expect(counted.headers.get('x-ratelimit-used')).toBe('1');
      const passed = seen.find((entry) => entry.target === '/nowhere/at/all')!;
      expect([passed.decision?.reason, passed.verdict]).toEqual(['pass_through', null]);
    });

    it('keeps skipped paths away from the gate: no lookup, no charge, no header, no onDecision', async () => {
      const before = seen.length;
      const response = await fetch(`${server.url}/static/app.js`, {
        headers: { authorization: 'Bearer nobody' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
      expect(seen.length).toBe(before);
    });

    it('hands a CORS preflight to the application’s CORS handling, uncharged', async () => {
      const before = seen.length;
      const response = await fetch(`${server.url}/repos/octo/app/issues`, {
        method: 'OPTIONS',
        headers: PREFLIGHT,
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toMatch(/POST/);
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
      expect(seen.length).toBe(before);
    });

    it('tells onDecision of every answer: null decision for bad credentials, null verdict when the limits were not consulted', async () => {
      seen.length = 0;
      await (await fetch(server.url + EVENTS, { headers: { authorization: 'Bearer nobody' } })).arrayBuffer();
      await (await fetch(`${server.url}/repos/octo//issues/events`)).arrayBuffer();
      await (
        await fetch(server.url + EVENTS, { headers: bearer(fresh('fine-grained', 'issues=read')) })
      ).arrayBuffer();
      expect(
        seen.map(({ decision, verdict }) => [decision?.reason ?? null, verdict?.allowed ?? null]),
      ).toEqual([
        [null, null],
        ['bad_path', null],
        ['allowed', true],
      ]);
    });

    it('answers a refusal with the body onDecision returns, keeping status and headers', async () => {
      const response = await fetch(server.url + EVENTS, {
        headers: bearer(fresh('fine-grained', 'contents=read')),
      });
      expect(response.status).toBe(403);
      expect(response.headers.get('x-accepted-service-permissions')).toBe('issues=read');
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await response.json()).toEqual({ error: 'missing permission', see: 'admin' });
    });

    it('adds the draft-8 RateLimit fields for the primary window, then for the secondary rule that refused', async () => {
      const allowed = await fetch(server.url + EVENTS, {
        headers: bearer(fresh('fine-grained', 'issues=read')),
      });
      expect(allowed.headers.get('ratelimit-policy')).toBe('"core";q=6;w=3600');
      const [, remaining, seconds] =
        /^"core";r=(\d+);t=(\d+)$/.exec(allowed.headers.get('ratelimit') ?? '') ?? [];
      expect(remaining).toBe('5');
      expect(Number(seconds)).toBeGreaterThan(3590);
      // The window ends on a whole second after an hour; seconds to it are rounded up.
      expect(Number(seconds)).toBeLessThanOrEqual(3601);
      const secret = fresh('classic', 'notifications');
      let refused: Response | undefined;
      for (let i = 0; i < 5 && refused === undefined; i++) {
        const response = await fetch(`${server.url}/repos/octo/app/notifications`, {
          method: 'PUT',
          headers: bearer(secret),
        });
        if (response.status === 403) refused = response;
        else await response.arrayBuffer();
      }
      expect(refused!.headers.get('ratelimit-policy')).toBe('"rest_points";q=20;w=60');
      expect(refused!.headers.get('ratelimit')).toBe(
        `"rest_points";r=0;t=${refused!.headers.get('retry-after')}`,
      );
      // Limits refusals link to the rate-limit documentation configured.
      expect((await refused!.json()).documentation_url).toBe('https://docs.test/limits');
    });

    it('reports the rule nearest exhaustion for an admitted request: REST points after two PUTs', async () => {
      // smallLimits: 6 requests an hour, 20 REST points a minute, a PUT 5 points. The third PUT
      // arrives with points 10 of 20 left (50 %), core 4 of 6 (67 %), CPU (100 ms a minute) a few
      // ms spent: rest_points, 5 left after it, all back when it leaves the minute (60 s).
      const secret = fresh('classic', 'notifications');
      const put = () =>
        fetch(`${server.url}/repos/octo/app/notifications`, { method: 'PUT', headers: bearer(secret) });
      const first = await put();
      // Every rule whole when it arrived: the primary window's.
      expect(first.headers.get('ratelimit-policy')).toBe('"core";q=6;w=3600');
      await first.arrayBuffer();
      await (await put()).arrayBuffer();
      const third = await put();
      expect(third.status).toBe(200);
      expect(third.headers.get('x-ratelimit-remaining')).toBe('3');
      expect(third.headers.get('ratelimit-policy')).toBe('"rest_points";q=20;w=60');
      expect(third.headers.get('ratelimit')).toBe('"rest_points";r=5;t=60');
      await third.arrayBuffer();
    });

    it('links a 401 and a hidden 404 to the authentication documentation configured', async () => {
      const unauthenticated = await fetch(`${server.url}/repos/octo/app/issues`, { method: 'POST' });
      expect(unauthenticated.status).toBe(401);
      expect((await unauthenticated.json()).documentation_url).toBe('https://docs.test/auth');
      const hidden = await fetch(server.url + EVENTS, {
        headers: bearer(`${fresh('fine-grained', 'issues=read')}:octo/other`),
      });
      expect(hidden.status).toBe(404);
      expect((await hidden.json()).documentation_url).toBe('https://docs.test/auth');
    });
  });

  describe(`hooks and headers on ${kind}, defaults and other choices`, () => {
    let gate: Gate;
    let server: RunningServer;
    beforeAll(async () => {
      gate = testGate({ corsPreflight: 'gate', standardHeaders: 'draft-7' });
      server = await startServer(kind, gate);
    });
    afterAll(() => server.close());

    it('decides a CORS preflight like any request under corsPreflight: gate', async () => {
      const before = server.arrivals.length;
      const response = await fetch(`${server.url}/repos/octo/app/issues`, {
        method: 'OPTIONS',
        headers: PREFLIGHT,
      });
      expect(response.status).toBe(404);
      expect(server.arrivals.length).toBe(before);
    });

    it('adds the draft-7 combined RateLimit field', async () => {
      const response = await fetch(server.url + EVENTS, {
        headers: bearer(fresh('fine-grained', 'issues=read')),
      });
      expect(response.headers.get('ratelimit-policy')).toBe('6;w=3600');
      const [, reset] =
        /^limit=6, remaining=5, reset=(\d+)$/.exec(response.headers.get('ratelimit') ?? '') ?? [];
      expect(Number(reset)).toBeGreaterThan(3590);
      expect(Number(reset)).toBeLessThanOrEqual(3601);
    });

    it('links each refusal to its documentation by default: authentication, permissions, rate limits', async () => {
      const urls: string[] = [];
      const unauthenticated = await fetch(server.url + EVENTS, {
        headers: { authorization: 'Bearer nobody' },
      });
      urls.push((await unauthenticated.json()).documentation_url);
      const forbidden = await fetch(server.url + EVENTS, {
        headers: bearer(fresh('fine-grained', 'contents=read')),
      });
      urls.push((await forbidden.json()).documentation_url);
      const secret = fresh('fine-grained', 'issues=read');
      for (let i = 0; i < 6; i++)
        await (await fetch(server.url + EVENTS, { headers: bearer(secret) })).arrayBuffer();
      const limited = await fetch(server.url + EVENTS, { headers: bearer(secret) });
      expect(limited.status).toBe(403);
      urls.push((await limited.json()).documentation_url);
      expect(urls).toEqual([
        'https://docs.example.com/rest/authentication',
        'https://docs.example.com/rest/permissions',
        gate.limiter.config.answers.documentationUrl,
      ]);
    });
  });
}

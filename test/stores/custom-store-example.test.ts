// The README's custom store (examples/custom-store.ts, shipped in the package) keeps the contract
// tollgate's own stores keep, and serves a gate on a real node:http server: a new user's trial
// found the store contract documented only in part, so the example is the documentation, tested.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createMapStore } from '../../examples/custom-store.js';
import { createGate, createLimiter, type LimitsStore } from '../../src/index.js';
import { defaultLimits } from '../../src/limits/default-limits.js';
import { unavailableVerdict } from '../../src/limits.js';
import { tollgate } from '../../src/node.js';
import { limitsStoreContract } from './limits-store.case.js';

const OCTOCAT = {
  kind: 'fine-grained',
  permissions: { issues: 'read' },
  repositories: 'all',
  user: 'octocat',
} as const;
const AUTH = { authorization: 'Bearer s3cret' };

limitsStoreContract('the custom store example', () => createMapStore(), defaultLimits());

describe('the custom store example behind a gate', () => {
  it('frees every slot of requests served, refused and aborted, on a real server', async () => {
    const store = createMapStore();
    const limiter = createLimiter({ store });
    const lookupToken = (secret: string) => (secret === 's3cret' ? OCTOCAT : null);
    const guard = tollgate(createGate({ limiter, lookupToken }));
    const server = createServer((req, res) =>
      guard(req, res, () => {
        if (req.url?.includes('slow')) setTimeout(() => res.end('[]'), 200);
        else res.end('[]');
      }),
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 110; i++) {
        const response = await fetch(`${base}/repos/acme/app/issues/events`, { headers: AUTH });
        await response.text();
        statuses.push(response.status);
      }
      // More requests than the concurrency ceiling (100), one after another: none refused.
      expect(new Set(statuses)).toEqual(new Set([200]));
      // A policy refusal (the token reads issues, this writes one) counts: admitted and settled at once.
      const refused = await fetch(`${base}/repos/acme/app/issues`, {
        method: 'POST',
        headers: AUTH,
        body: '{}',
      });
      await refused.text();
      expect(refused.status).toBe(403);
      const aborts = Array.from({ length: 5 }, async () => {
        const controller = new AbortController();
        const request = fetch(`${base}/repos/acme/app/issues/events?slow`, {
          headers: AUTH,
          signal: controller.signal,
        }).catch(() => null);
        setTimeout(() => controller.abort(), 50);
        return request;
      });
      await Promise.all(aborts);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(store.read('user:octocat')).toMatchObject({ inFlight: 0 });
      const status = await fetch(`${base}/rate_limit`, { headers: AUTH });
      const body = (await status.json()) as { resources: { core: { used: number } } };
      expect(body.resources.core.used).toBe(116);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('a store of your own that cannot decide', () => {
  it('answers unavailableVerdict, and the gate answers 503 with its body, charging nothing', async () => {
    const inner = createMapStore();
    let down = false;
    const store: LimitsStore = {
      sync: true,
      apply: (event, now, config) =>
        down && event.kind === 'admit'
          ? unavailableVerdict(event.resource, event.limit, config)
          : inner.apply(event, now, config),
      read: (key) => inner.read(key),
    };
    const errors: unknown[] = [];
    const guard = tollgate(
      createGate({
        limiter: createLimiter({ store }),
        lookupToken: (secret) => (secret === 's3cret' ? OCTOCAT : null),
        onError: (error) => errors.push(error),
      }),
    );
    const server = createServer((req, res) => guard(req, res, () => res.end('[]')));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/repos/acme/app/issues/events`;
    try {
      expect((await fetch(url, { headers: AUTH })).status).toBe(200);
      down = true;
      const refused = await fetch(url, { headers: AUTH });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(((await refused.json()) as { message: string }).message).toBe(
        'The rate limit store is unavailable; try again shortly.',
      );
      down = false;
      const after = await fetch(url, { headers: AUTH });
      expect(after.status).toBe(200);
      // The refusal charged nothing: two requests counted in the caller's window.
      expect(after.headers.get('x-ratelimit-used')).toBe('2');
      expect(errors).toEqual([]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

// The IETF fields of admitted requests over a real Redis: the same hand-computed figures as over
// the memory store (see test/gate/nearest-rule.case.ts). The caller's clock, so they are exact.
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createGate, createLimiter, type Token } from '../../src/index.js';
import { createRedisStore } from '../../src/stores/redis-store.js';
import { nearestRuleContract } from '../gate/nearest-rule.case.js';
import { runRedisTests, sharedRedis, startRedis } from '../support/redis-server.js';

describe.runIf(runRedisTests)('standardHeaders over the Redis store: the rule nearest exhaustion', () => {
  const redis = sharedRedis();
  let stores = 0;
  nearestRuleContract(() =>
    createRedisStore({
      client: redis.client,
      prefix: `nearest${stores++}-${Date.now()}:`,
      useCallerClock: true,
      timeoutMs: 2_000,
    }),
  );

  it('reports the verdict’s primary window when Redis cannot tell (fail-open, server stopped)', async () => {
    const server = await startRedis();
    let stopped = false;
    const client = new Redis({ port: server.port, host: '127.0.0.1', retryStrategy: () => 20 });
    client.on('error', () => {});
    try {
      await new Promise<void>((resolve) =>
        client.status === 'ready' ? resolve() : client.once('ready', resolve),
      );
      const store = createRedisStore({ client, timeoutMs: 50, onFailure: 'fail-open' });
      const token: Token = { kind: 'classic', scopes: ['repo'], user: 'stopped' };
      const gate = createGate({
        lookupToken: () => token,
        limiter: createLimiter({ store }),
        measureCpu: false,
        standardHeaders: 'draft-8',
      });
      await server.stop();
      stopped = true;
      const answer = await gate.check({
        method: 'GET',
        target: '/repos/octo/app/issues/events',
        header: (name) => (name === 'authorization' ? 'Bearer s3cret' : undefined),
        remoteAddress: '203.0.113.7',
      });
      // The figures of the failure mode's verdict, as its x-ratelimit-* headers tell them: nothing
      // counted, no window (reset 0, so t=0). Read as a fresh identity, t would be 3600.
      expect(answer.headers['x-ratelimit-reset']).toBe('0');
      expect(answer.headers['ratelimit-policy']).toBe('"core";q=5000;w=3600');
      expect(answer.headers.ratelimit).toBe(`"core";r=${answer.headers['x-ratelimit-remaining']};t=0`);
    } finally {
      client.disconnect();
      if (!stopped) await server.stop();
    }
  });
});

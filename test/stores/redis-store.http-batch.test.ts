// Behind an HTTP server each request arrives in a socket callback of its own: the store's calls of
// one pass of the event loop still go to Redis together, so the admissions of requests that arrive
// together share a batch call (a queue flushed after each callback sent them one to a call).
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { tollgate } from '../../src/adapters/node.js';
import { createGate } from '../../src/gate/create-gate.js';
import { createLimiter } from '../../src/limiter/create-limiter.js';
import { createRedisStore } from '../../src/stores/redis-store.js';
import { runRedisTests, sharedRedis } from '../support/redis-server.js';

async function commandCalls(client: Redis, name: string): Promise<number> {
  const info = await client.info('commandstats');
  return Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(info)?.[1] ?? 0);
}

describe.runIf(runRedisTests)('the Redis store behind node:http', () => {
  const redis = sharedRedis();

  it('batches the admissions of requests that arrive together on separate connections', async () => {
    const store = createRedisStore({ client: redis.client, prefix: 'http-batch:', timeoutMs: 5_000 });
    const gate = createGate({
      limiter: createLimiter({ store }),
      lookupToken: (secret) =>
        secret === 's3cret'
          ? { kind: 'fine-grained', permissions: { issues: 'read' }, repositories: 'all', user: 'octocat' }
          : null,
    });
    const guard = tollgate(gate);
    const server = createServer((req, res) => guard(req, res, () => res.end('[]')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    const get = () =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          {
            port,
            host: '127.0.0.1',
            path: '/repos/acme/app/issues/events',
            agent,
            headers: { authorization: 'Bearer s3cret' },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end();
      });
    try {
      // The 64 connections opened first, so the burst below is 64 requests written at once.
      expect(new Set(await Promise.all(Array.from({ length: 64 }, get)))).toEqual(new Set([200]));
      await new Promise((resolve) => setTimeout(resolve, 50)); // the completions settled
      const before = await commandCalls(redis.client, 'fcall');
      const statuses = await Promise.all(Array.from({ length: 64 }, get));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const calls = (await commandCalls(redis.client, 'fcall')) - before;
      expect(statuses.every((status) => status === 200)).toBe(true);
      // 128 events (64 admissions, 64 completions). One admission to a call would take 64 calls
      // before any completion; batched, a few calls carry them all.
      console.log(`fcalls for 128 events: ${calls}`);
      expect(calls).toBeLessThan(48);
    } finally {
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
      await gate.close();
    }
  });
});

// The Redis store on a three-master Redis Cluster: one identity's keys share a slot, scripts run
// where the keys live, and the answers are the ones a single server gives.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisStore } from '../../src/stores/redis-store.js';
import { admitEvent, config, T0 } from '../limits/support.js';
import { requireRedis, runRedisTests, startCluster } from '../support/redis-server.js';

describe.runIf(runRedisTests)('the Redis store on a Redis Cluster', () => {
  let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
  let client: Cluster;
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-cluster-'));
  beforeAll(async () => {
    requireRedis();
    cluster = await startCluster(dir);
    client = new Cluster(cluster.ports.map((port) => ({ host: '127.0.0.1', port })));
    await new Promise<void>((resolve) => client.once('ready', () => resolve()));
  }, 60_000);
  afterAll(async () => {
    client?.disconnect();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('decides identities spread over every master, each in one atomic script', async () => {
    const store = createRedisStore({ client, useCallerClock: true, timeoutMs: 2_000 });
    const keys = Array.from({ length: 30 }, (_, i) => `user:cluster${i}`);
    for (const key of keys) {
      for (let i = 0; i < 3; i++)
        expect((await store.apply(admitEvent({ key, limit: 3 }), T0, config)).allowed).toBe(true);
      const refused = await store.apply(admitEvent({ key, limit: 3 }), T0, config);
      expect(refused.rule).toBe('primary');
      expect((await store.read(key))?.coreUsed).toBe(3);
    }
    // The identities landed on every master: the hash tag keeps each one's keys together, not all in one place.
    const masters = client.nodes('master');
    const counts = await Promise.all(masters.map((node) => node.dbsize()));
    expect(counts.filter((count) => count > 0)).toHaveLength(3);
  });
});

// The Redis store on a three-master Redis Cluster: one identity's keys share a slot, scripts run
// where the keys live, and the answers are the ones a single server gives.
import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../src/limits/limit-event.js';
import { keySlot } from '../../src/stores/redis-node-policies.js';
import { createRedisStore } from '../../src/stores/redis-store.js';
import { admitEvent, config, T0 } from '../limits/support.js';
import { runRedisTests } from '../support/redis-server.js';
import { clusterForBlock } from './cluster-layout.js';

describe.runIf(runRedisTests)('the Redis store on a Redis Cluster', () => {
  const running = clusterForBlock();

  it('decides identities spread over every master, each in one atomic script', async () => {
    const store = createRedisStore({ client: running.client, useCallerClock: true, timeoutMs: 2_000 });
    const keys = Array.from({ length: 30 }, (_, i) => `user:cluster${i}`);
    for (const key of keys) {
      for (let i = 0; i < 3; i++)
        expect((await store.apply(admitEvent({ key, limit: 3 }), T0, config)).allowed).toBe(true);
      const refused = await store.apply(admitEvent({ key, limit: 3 }), T0, config);
      expect(refused.rule).toBe('primary');
      expect((await store.read(key))?.coreUsed).toBe(3);
    }
    // The identities landed on every master: the hash tag keeps each one's keys together, not all in one place.
    const masters = running.client.nodes('master');
    const counts = await Promise.all(masters.map((node) => node.dbsize()));
    expect(counts.filter((count) => count > 0)).toHaveLength(3);
  });
});

// Found by a helper's run against a real cluster: with one failure policy for the whole store, a
// master that is down paused every identity (each call to it times out; ioredis retries it for 1-2 s
// and never fails it fast), and about 90% of the healthy identities' admissions were answered by
// `onFailure` for as long as the node stayed down.
describe.runIf(runRedisTests)('the Redis store on a Redis Cluster with one master down', () => {
  // The healthy masters keep serving their slots however long the dead one stays down.
  const running = clusterForBlock(['--cluster-require-full-coverage', 'no']);

  it('computes the slot of a key as the cluster does', async () => {
    const keys = [
      'foo',
      'tollgate:{user:octocat}:v2',
      '{}x',
      'a{}b{c}',
      '{ü}',
      'user:ğ',
      ...Array.from({ length: 50 }, (_, i) => `k${i * 7919}`),
    ];
    for (const key of keys) expect(keySlot(key), key).toBe(await running.client.cluster('KEYSLOT', key));
  });

  it("keeps deciding the identities of the healthy masters by Redis, and only the dead one's by the mode", async () => {
    const store = createRedisStore({
      client: running.client,
      useCallerClock: true,
      timeoutMs: 50,
      retryAfterFailureMs: 1_000,
    });
    const users = Array.from({ length: 60 }, (_, i) => `user:down${i}`);
    const nodeOf = (user: string) => running.client.slots[keySlot(store.keysOf(user)[0])]![0]!;
    const held = new Map<string, Ticket>();
    for (const user of users) {
      const admitted = await store.apply(admitEvent({ key: user }), T0, config);
      expect(admitted.degraded).toBeUndefined();
      held.set(user, admitted.ticket!);
    }
    const dead = nodeOf(users[0]!);
    const onDead = users.filter((user) => nodeOf(user) === dead);
    const healthy = users.filter((user) => nodeOf(user) !== dead);
    expect(onDead.length).toBeGreaterThan(0);
    expect(healthy.length).toBeGreaterThan(0);
    const { nodes, ports } = running.cluster;
    await nodes[ports.indexOf(Number(dead.split(':')[1]))]!.stop();
    // The dead node's requests end: their completions wait to be settled. A healthy master's
    // answers must not send them to the dead node, where they would be lost (found by a review).
    for (const user of onDead)
      await store.apply({ kind: 'complete', ticket: held.get(user)!, status: 200, cpuMs: 1 }, T0, config);
    const sentTo: string[] = [];
    const callBuffer = running.client.callBuffer.bind(running.client);
    running.client.callBuffer = ((command: string, ...args: unknown[]) => {
      if (command === 'fcall') sentTo.push(...(args.slice(2, 2 + Number(args[1])) as string[]));
      return callBuffer(command, ...(args as never[]));
    }) as typeof running.client.callBuffer;
    for (const user of healthy)
      expect((await store.apply(admitEvent({ key: user }), T0, config)).degraded).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 100));
    running.client.callBuffer = callBuffer;
    const deadKeys = new Set(onDead.map((user) => store.keysOf(user)[0]));
    expect(sentTo.filter((key) => deadKeys.has(key))).toEqual([]);
    expect(sentTo.length).toBeGreaterThanOrEqual(healthy.length);
    const decided = { healthy: [0, 0], dead: [0, 0] };
    for (let round = 0; round < 12; round++) {
      const verdicts = await Promise.all(
        users.map((user) => store.apply(admitEvent({ key: user }), T0 + round, config)),
      );
      verdicts.forEach((verdict, i) => {
        const side = onDead.includes(users[i]!) ? decided.dead : decided.healthy;
        side[verdict.degraded === undefined ? 0 : 1]!++;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // [by Redis, by the mode]: every healthy identity's admission by Redis, none of the dead node's.
    expect(decided.healthy).toEqual([healthy.length * 12, 0]);
    expect(decided.dead).toEqual([0, onDead.length * 12]);
  }, 30_000);
});

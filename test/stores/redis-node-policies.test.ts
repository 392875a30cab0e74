// The Redis store's failure policies on a real Redis Cluster: one per master, found by the slot
// table. Found by a review: each policy added a 'ready' listener to the client while it connected
// (past ten masters ioredis warned MaxListenersExceeded), and a policy was never dropped, so every
// address a failover ever demoted kept one (its pause, its fallback store) for the process's life;
// and `reset` cleared the fallback store of the key's current master's policy alone.
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createNodePolicies, keySlot } from '../../src/stores/redis-node-policies.js';
import { createRedisStore } from '../../src/stores/redis-store.js';
import { admitEvent, config, T0 } from '../limits/support.js';
import { runRedisTests } from '../support/redis-server.js';
import { clusterForBlock, failOver, moveEmptySlot } from './cluster-layout.js';

const redisKeyOf = (identity: string) => `tollgate:{${identity}}:v2`;

/** One identity per master of the client's slot table, and the port of each one's master. */
function onePerMaster(slots: readonly (readonly string[] | undefined)[], tag: string) {
  const found = new Map<string, string>();
  for (let i = 0; found.size < 3 && i < 1000; i++) {
    const identity = `user:${tag}${i}`;
    const node = slots[keySlot(redisKeyOf(identity))]![0]!;
    if (!found.has(node)) found.set(node, identity);
  }
  expect(found.size).toBe(3);
  return [...found].map(([node, identity]) => ({ identity, port: Number(node.split(':')[1]) }));
}

describe.runIf(runRedisTests)('the failure policies of a Redis store on a Redis Cluster', () => {
  const running = clusterForBlock();

  it('wait for a reconnecting client with one ready listener, however many masters they guard', async () => {
    const { client } = running;
    const store = createRedisStore({ client, useCallerClock: true, timeoutMs: 5_000 });
    const identities = onePerMaster(client.slots, 'listener').map((each) => each.identity);
    // A policy for each master (the client's slot table names three).
    for (const identity of identities)
      expect((await store.apply(admitEvent({ key: identity }), T0, config)).degraded).toBeUndefined();
    client.disconnect();
    await once(client, 'end');
    // Connecting again: the slot table kept, so each admission waits in its own master's policy.
    const connected = client.connect();
    const before = client.listenerCount('ready');
    const admissions = identities.map((identity) => store.apply(admitEvent({ key: identity }), T0, config));
    expect(client.status).toBe('connecting');
    expect(client.listenerCount('ready') - before).toBe(1);
    await connected;
    for (const verdict of await Promise.all(admissions)) {
      expect(verdict.allowed).toBe(true);
      expect(verdict.degraded).toBeUndefined();
    }
    expect(client.listenerCount('ready')).toBe(before);
    await store.close();
  });

  it('drops the policy of a master a failover demoted, and settles the tickets it answered all the same', async () => {
    const { client } = running;
    const options = {
      timeoutMs: 2_000,
      onFailure: 'fallback',
      retryAfterFailureMs: 1_000,
      fallbackShare: 1,
    } as const;
    const policies = createNodePolicies(client, options, redisKeyOf);
    const masters = onePerMaster(client.slots, 'failover');
    for (const { identity } of masters) policies.of(identity);
    const { identity, port } = masters[0]!;
    const slot = keySlot(redisKeyOf(identity));
    const demoted = policies.of(identity);
    // A request its fallback store admitted (as when that master stalled), still in flight.
    const local = demoted.decide(admitEvent({ key: identity }), T0, config);
    expect(local.degraded).toBe('fallback');

    const replica = await running.addReplica(port);
    await failOver(running, replica, slot);
    const promoted = policies.of(identity);
    expect(promoted).not.toBe(demoted);
    // The ticket the demoted master's policy answered is still settled there, in its fallback store.
    expect(policies.owning(local.ticket!)).toBe(demoted);
    const settled = policies
      .owning(local.ticket!)!
      .decide({ kind: 'complete', ticket: local.ticket!, status: 200, cpuMs: 0 }, T0, config);
    expect(settled.degraded).toBe('fallback');
    expect(demoted.read(identity)).toMatchObject({ inFlight: 0 });

    // The demoted master takes its slots back: its address gets a fresh policy, the old one was
    // dropped when it stopped serving slots (and the replica's goes in turn).
    await failOver(running, port, slot);
    const back = policies.of(identity);
    expect(back).not.toBe(demoted);
    expect(back).not.toBe(promoted);
    expect(back.read(identity)).toBeUndefined();
    expect(policies.of(identity)).toBe(back);
  }, 60_000);
});

describe.runIf(runRedisTests)(
  'resetting an identity of a Redis store on a Redis Cluster, in fallback',
  () => {
    const running = clusterForBlock();

    it("clears what every master's policy kept of it in fallback, not only its current master's (its slot moved since)", async () => {
      const { client } = running;
      const store = createRedisStore({
        client,
        onFailure: 'fallback',
        timeoutMs: 50,
        retryAfterFailureMs: 50,
      });
      const [home, other] = onePerMaster(client.slots, 'reset');
      const user = home!.identity;
      const key = store.keysOf(user)[0];
      const slot = keySlot(key);
      // Redis decides at first: the server's clock measured, the code loaded on every master.
      expect((await store.apply(admitEvent({ key: other!.identity }), T0, config)).degraded).toBeUndefined();
      // The identity's master stalls: its policy's fallback store admits the request.
      const stall = new Redis({ host: '127.0.0.1', port: home!.port });
      await stall.call('CLIENT', 'PAUSE', '1500', 'ALL');
      expect((await store.apply(admitEvent({ key: user }), T0, config)).degraded).toBe('fallback');
      // Answered once the pause ends, after the admission sent before it (which ran too late to charge).
      await client.del(key);

      // Its slot moves to another master, where it is reset, and moves back.
      await moveEmptySlot(running, slot, home!.port, other!.port);
      await store.reset(user);
      await client.del(key);
      await moveEmptySlot(running, slot, other!.port, home!.port);
      // Redis holds a state of the identity again, so a read Redis answered would not be empty.
      expect((await store.apply(admitEvent({ key: user }), T0, config)).degraded).toBeUndefined();

      // The master stalls again (past the watch's longest wait, 1 s): the state read is answered
      // by its policy's fallback store, which the reset emptied.
      await stall.call('CLIENT', 'PAUSE', '1500', 'ALL');
      expect(await store.read(user)).toBeUndefined();
      stall.disconnect();
      await store.close();
    }, 60_000);
  },
);

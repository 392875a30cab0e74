// The contract every limits store keeps (memory today, Redis later): `apply` behaves exactly like
// `step` over the stored state, atomically, for any identity; `read` returns that state.
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/limiter/create-limiter.js';
import type { LimitsConfig } from '../../src/limits/limits-config.js';
import type { LimitsStore } from '../../src/limits/limits-store.js';
import { step } from '../../src/limits/step.js';
import { admitEvent, T0 } from '../limits/support.js';

/**
 * Runs the store contract against stores made by `make`. `logKeysOf`, for a store that keeps long
 * sliding logs in keys of their own, counts those an identity has now.
 */
export function limitsStoreContract<S extends LimitsStore>(
  name: string,
  make: () => S,
  config: LimitsConfig,
  logKeysOf?: (store: S, key: string) => Promise<number>,
): void {
  describe(`${name} keeps the limits store contract`, () => {
    it('holds nothing for an identity never seen', async () => {
      expect(await make().read('user:nobody')).toBeUndefined();
    });

    it('stores what step computes, field for field', async () => {
      const store = make();
      const verdict = await store.apply(admitEvent({ cost: 5, content: true }), T0, config);
      const expected = step(
        undefined,
        admitEvent({ cost: 5, content: true }),
        T0,
        config,
        verdict.ticket!.id,
      );
      expect(verdict).toEqual(expected.verdict);
      expect(await store.read('user:octocat')).toEqual(expected.state);
    });

    it('keeps identities apart', async () => {
      const store = make();
      for (let i = 0; i < 60; i++) await store.apply(admitEvent({ key: 'ip:1', limit: 60 }), T0, config);
      expect((await store.apply(admitEvent({ key: 'ip:1', limit: 60 }), T0, config)).rule).toBe('primary');
      expect((await store.apply(admitEvent({ key: 'ip:2', limit: 60 }), T0, config)).allowed).toBe(true);
    });

    it('completes a request admitted earlier with its ticket', async () => {
      const store = make();
      const admitted = await store.apply(admitEvent(), T0, config);
      await store.apply(
        { kind: 'complete', ticket: admitted.ticket!, status: 304, cpuMs: 10 },
        T0 + 5,
        config,
      );
      const state = await store.read('user:octocat');
      expect(state).toMatchObject({ inFlight: 0, coreUsed: 0 });
      // 10 ms of CPU in the CPU log, stamped at the start of its second (T0 is a whole second).
      expect(state?.logs?.[2]).toEqual([T0, 10]);
    });

    it('writes nothing for a denied request', async () => {
      const store = make();
      for (let i = 0; i < 100; i++) await store.apply(admitEvent(), T0, config);
      const before = await store.read('user:octocat');
      expect((await store.apply(admitEvent(), T0, config)).rule).toBe('concurrency');
      expect(await store.read('user:octocat')).toEqual(before);
    });

    it('inspects one identity: its state and what GET /rate_limit would say, charging nothing', async () => {
      const limiter = createLimiter({ store: make(), clock: () => T0, config });
      const alice = limiter.identify({ kind: 'classic', user: 'alice' });
      expect((await limiter.inspect(alice)).state).toBeUndefined();
      const { ticket } = await limiter.admit({ identity: alice, method: 'GET' });
      await limiter.admit({ identity: alice, method: 'GET' });
      const snapshot = await limiter.inspect(alice);
      expect(snapshot.key).toBe('user:alice');
      expect(snapshot.state).toMatchObject({ inFlight: 2, coreUsed: 2 });
      expect(snapshot.status.resources.core).toMatchObject({ limit: 5000, used: 2, remaining: 4998 });
      expect((await limiter.inspect(alice)).state).toEqual(snapshot.state);
      expect(ticket).not.toBeNull();
    });

    it('resets one identity: fresh limits at once, its logs gone, its tickets in flight settle nothing, others untouched', async () => {
      const store = make();
      let now = T0;
      const limiter = createLimiter({ store, clock: () => now, config });
      const alice = limiter.identify({ kind: 'anonymous', ip: '2001:db8::1' });
      const bob = limiter.identify({ kind: 'anonymous', ip: '203.0.113.7' });
      const held = [];
      // One ms apart: the points log holds 60 entries, too many to pack into the state's number.
      for (let i = 0; i < 60; i++, now++)
        held.push((await limiter.admit({ identity: alice, method: 'GET' })).ticket!);
      await limiter.admit({ identity: bob, method: 'GET' });
      expect((await limiter.admit({ identity: alice, method: 'GET' })).rule).toBe('primary');
      expect((await limiter.inspect(alice)).state?.logs?.[0]).toHaveLength(120);
      if (logKeysOf !== undefined) expect(await logKeysOf(store, alice.key)).toBe(1);
      await limiter.reset(alice);
      const after = (await limiter.inspect(alice)).state;
      expect([after?.coreUsed ?? 0, after?.inFlight ?? 0]).toEqual([0, 0]);
      expect((after?.logs ?? []).flat()).toEqual([]);
      if (logKeysOf !== undefined) expect(await logKeysOf(store, alice.key)).toBe(0);
      expect((await limiter.inspect(bob)).state).toMatchObject({ coreUsed: 1 });
      const fresh = await limiter.admit({ identity: alice, method: 'GET' });
      expect(fresh).toMatchObject({ allowed: true, remaining: 59 });
      // The points log starts again from this one request: nothing of the 60 before is kept.
      expect((await limiter.inspect(alice)).state?.logs?.[0]).toEqual([now, 1]);
      // A request admitted before the reset, finishing after it, frees no slot of the new state.
      for (const ticket of held.slice(0, 5)) await limiter.complete(ticket, { status: 304 });
      expect((await limiter.inspect(alice)).state).toMatchObject({ inFlight: 1, coreUsed: 1 });
    });
  });
}

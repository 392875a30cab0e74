// The contract every limits store keeps (memory today, Redis later): `apply` behaves exactly like
// `step` over the stored state, atomically, for any identity; `read` returns that state.
import { describe, expect, it } from 'vitest';
import type { LimitsConfig } from '../../src/limits/limits-config.js';
import type { LimitsStore } from '../../src/limits/limits-store.js';
import { step } from '../../src/limits/step.js';
import { admitEvent, T0 } from '../limits/support.js';

/** Runs the store contract against stores made by `make`. */
export function limitsStoreContract(name: string, make: () => LimitsStore, config: LimitsConfig): void {
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
  });
}

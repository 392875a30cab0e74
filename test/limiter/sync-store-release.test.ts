// A store of the caller's that says `sync: true` is held to it on every event the limiter sends:
// its admissions and completions were checked, its releases (the slot given back when a request is
// aborted) were not, and a Promise went back to the caller as if it were a Verdict (found by a review).
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/limiter/create-limiter.js';
import type { LimitEvent } from '../../src/limits/limit-event.js';
import type { LimitsConfig } from '../../src/limits/limits-config.js';
import type { SyncLimitsStore } from '../../src/limits/limits-store.js';
import type { Verdict } from '../../src/limits/verdict.js';
import { createMemoryStore } from '../../src/stores/memory-store.js';
import { T0 } from '../limits/support.js';
import { thrown } from '../support/thrown.js';

const REFUSED =
  'limiter: the store says `sync: true` but its `apply` returned a Promise; give `sync: false` for a store that answers asynchronously';

describe('a store that says sync: true', () => {
  it('has a release answered by a Promise refused as an admission is, and the release it made still frees the slot', async () => {
    const inner = createMemoryStore();
    const released: Promise<Verdict>[] = [];
    // Synchronous for admissions and completions; a Promise for releases only.
    const store = {
      sync: true as const,
      apply: (event: LimitEvent, now: number, config: LimitsConfig) => {
        if (event.kind !== 'release') return inner.apply(event, now, config);
        const answer = Promise.resolve().then(() => inner.apply(event, now, config));
        released.push(answer);
        return answer;
      },
      read: (key: string) => inner.read(key),
    };
    const limiter = createLimiter({ store: store as unknown as SyncLimitsStore, clock: () => T0 });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    const admitted = limiter.admit({ identity });
    expect(admitted.allowed).toBe(true);
    expect(inner.read(identity.key)).toMatchObject({ inFlight: 1 });
    const error = thrown(() => limiter.release(admitted.ticket!));
    expect(error.code).toBe('TOLLGATE_INVALID_OPTION');
    expect(error.message).toBe(REFUSED);
    // The store's release ran all the same: once it settles, no slot is held.
    expect(released).toHaveLength(1);
    await Promise.all(released);
    expect(inner.read(identity.key)).toMatchObject({ inFlight: 0 });
    // Completions of the same store are answered as before: synchronously.
    const next = limiter.admit({ identity });
    expect(limiter.complete(next.ticket!, { status: 200 })).not.toBeInstanceOf(Promise);
    expect(inner.read(identity.key)).toMatchObject({ inFlight: 0 });
  });
});

// The limiter's handover of the clock to its memory store (src/limiter/apply-now.ts) never goes
// around what the server set up: an `apply` replaced after the limiter was made, and a global clock
// that fake timers replaced, are honoured as every other path of the limiter honours them.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLimiter, createMemoryStore } from '../../src/index.js';
import type { LimitEvent } from '../../src/limits.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('the clock handed over to the memory store', () => {
  it('calls an apply replaced after the limiter was made (instrumented, spied on)', () => {
    const store = createMemoryStore();
    const limiter = createLimiter({ store, clock: () => 1_700_000_000_000 });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    limiter.admit({ identity });
    const seen: string[] = [];
    const own = store.apply;
    store.apply = (event: LimitEvent, now: number, config) => {
      seen.push(`${event.kind} at ${now}`);
      return own(event, now, config);
    };
    const { ticket } = limiter.admit({ identity });
    limiter.complete(ticket!, 200);
    expect(seen).toEqual(['admit at 1700000000000', 'complete at 1700000000000']);
  });

  it('reads the default clock as release and status do once fake timers replace Date.now (regression: a release freed nothing)', () => {
    const limiter = createLimiter();
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2020-01-01T00:00:00Z'));
    const { ticket } = limiter.admit({ identity });
    limiter.release(ticket!);
    // One clock for the admission and the release: the slot is free again.
    expect(limiter.store.read(identity.key)?.inFlight).toBe(0);
  });
});

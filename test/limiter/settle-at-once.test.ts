// `admit({ settle })`: an admission settled in the same call (the gate's counted policy refusals),
// and the two calls a limiter makes instead for a store that cannot.
import { describe, expect, it } from 'vitest';
import { createLimiter, createMemoryStore } from '../../src/index.js';

const T0 = Date.UTC(2026, 0, 1);

function counting(hideSettle: boolean) {
  const inner = createMemoryStore();
  let calls = 0;
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      if (property === 'settlesAdmissions' && hideSettle) return undefined;
      if (property !== 'apply') return Reflect.get(target, property, receiver);
      return (...args: Parameters<typeof inner.apply>) => {
        calls++;
        return target.apply(...args);
      };
    },
  });
  return { inner, store, calls: () => calls };
}

describe('limiter.admit with settle', () => {
  it('leaves the state admit-then-complete leaves, in one call where the store can and two where it cannot', () => {
    const states = [false, true].map((hideSettle) => {
      const { inner, store, calls } = counting(hideSettle);
      const limiter = createLimiter({ store, clock: () => T0 });
      const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
      const verdict = limiter.admit({
        identity,
        method: 'POST',
        content: true,
        settle: { status: 403, cpuMs: 7 },
      });
      expect(verdict.allowed).toBe(true);
      expect(calls()).toBe(hideSettle ? 2 : 1);
      return inner.read(identity.key);
    });
    // The reference: the same request admitted, then completed.
    const reference = createLimiter({ clock: () => T0 });
    const identity = reference.identify({ kind: 'classic', user: 'octocat' });
    const { ticket } = reference.admit({ identity, method: 'POST', content: true });
    reference.complete(ticket!, { status: 403, cpuMs: 7 });
    const expected = reference.store.read(identity.key);
    expect(expected).toMatchObject({ inFlight: 0, coreUsed: 1 });
    expect(states[0]).toEqual(expected);
    expect(states[1]).toEqual(expected);
  });

  it('holds no slot: its ticket settles nothing later', () => {
    const limiter = createLimiter({ clock: () => T0 });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    const verdict = limiter.admit({ identity, settle: { status: 404 } });
    const before = limiter.store.read(identity.key);
    if (verdict.ticket !== null) limiter.complete(verdict.ticket, { status: 304, cpuMs: 50 });
    expect(limiter.store.read(identity.key)).toEqual(before);
  });

  it('charges nothing when a limit refuses it', () => {
    const limiter = createLimiter({ clock: () => T0, config: { secondary: { concurrency: { limit: 1 } } } });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    expect(limiter.admit({ identity }).allowed).toBe(true);
    const before = limiter.store.read(identity.key);
    const refused = limiter.admit({ identity, settle: { status: 403 } });
    expect(refused.rule).toBe('concurrency');
    expect(limiter.store.read(identity.key)).toEqual(before);
  });

  it('refuses a status the service could not answer, by name', () => {
    const limiter = createLimiter();
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    expect(() => limiter.admit({ identity, settle: { status: 42 } })).toThrow(
      /`settle.status` must be an HTTP status from 100 to 599, got `42`/,
    );
  });
});

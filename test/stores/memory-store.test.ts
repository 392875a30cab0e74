// The memory store: the store contract, bounded size (LRU), eviction of expired state.
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/limiter/create-limiter.js';
import { AdmissionTicket, type Ticket } from '../../src/limits/limit-event.js';
import { stateExpiresAt } from '../../src/limits/state-expiry.js';
import { step } from '../../src/limits/step.js';
import { createMemoryStore } from '../../src/stores/memory-store.js';
import { admitEvent, config, T0 } from '../limits/support.js';
import { limitsStoreContract } from './limits-store.case.js';

limitsStoreContract('memory store', () => createMemoryStore(), config);

describe('memory store', () => {
  it('keeps at most maxIdentities, dropping one not used recently', () => {
    const store = createMemoryStore({ maxIdentities: 3 });
    for (const key of ['user:a', 'user:b', 'user:c']) store.apply(admitEvent({ key }), T0, config);
    store.apply(admitEvent({ key: 'user:a' }), T0 + 1, config); // a is now the most recent
    store.apply(admitEvent({ key: 'user:d' }), T0 + 2, config);
    expect(store.size).toBe(3);
    expect(store.read('user:b')).toBeUndefined();
    expect(store.read('user:a')?.coreUsed).toBe(2);
    expect(store.evictions).toBe(1);
  });

  it('grows past its first slab without losing state', () => {
    const store = createMemoryStore({ maxIdentities: 5000 });
    for (let i = 0; i < 3000; i++) store.apply(admitEvent({ key: `user:${i}` }), T0, config);
    expect(store.size).toBe(3000);
    expect(store.read('user:0')?.coreUsed).toBe(1);
    expect(store.read('user:2999')?.coreUsed).toBe(1);
  });

  it('stores nothing for an identity whose first request is denied', () => {
    const store = createMemoryStore();
    // A first request that can never pass: its cost is above the 900-point bucket.
    const verdict = store.apply(admitEvent({ key: 'user:b', cost: 901 }), T0, config);
    expect(verdict.allowed).toBe(false);
    expect(store.read('user:b')).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('sweeps identities whose state expired, and only those', () => {
    const store = createMemoryStore();
    store.apply(admitEvent({ key: 'user:old' }), T0, config);
    store.apply(admitEvent({ key: 'user:new' }), T0 + 3_000_000, config);
    const old = store.read('user:old')!;
    const expiry = stateExpiresAt(old, config);
    expect(expiry).toBeGreaterThan(T0);
    expect(store.sweep(expiry - 1, config)).toBe(0);
    expect(store.sweep(expiry, config)).toBe(1);
    expect(store.read('user:old')).toBeUndefined();
    expect(store.read('user:new')).toBeDefined();
  });

  it('drops expired identities by itself as it is used', () => {
    const store = createMemoryStore();
    for (let i = 0; i < 10; i++) store.apply(admitEvent({ key: `user:${i}` }), T0, config);
    // Two hours later every window ended and every bucket refilled.
    for (let i = 0; i < 200; i++)
      store.apply(admitEvent({ key: 'user:busy' }), T0 + 7_200_000 + i * 1000, config);
    expect(store.size).toBe(1);
  });

  it('expired state behaves exactly like no state', () => {
    const { state } = step(undefined, admitEvent({ cost: 5, content: true }), T0, config);
    const later = stateExpiresAt(state, config);
    expect(step(state, admitEvent(), later, config).verdict).toEqual(
      step(undefined, admitEvent(), later, config).verdict,
    );
  });

  it('rejects a maxIdentities that is not a positive integer', () => {
    expect(() => createMemoryStore({ maxIdentities: 0 })).toThrow(
      expect.objectContaining({ code: 'TOLLGATE_INVALID_OPTION' }),
    );
  });

  it('clear forgets every identity', () => {
    const store = createMemoryStore();
    store.apply(admitEvent(), T0, config);
    store.clear();
    expect(store.size).toBe(0);
    expect(store.read('user:octocat')).toBeUndefined();
  });
});

describe('memory-store tickets are handles (issue 18, item 8)', () => {
  it('settles nothing for a guessed, forged or copied ticket, even with the real id, key and row', () => {
    const limiter = createLimiter({ clock: () => 1.7e12 });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    const held = limiter.admit({ identity, method: 'GET' }).ticket!;
    const before = limiter.store.read(identity.key);
    expect(before).toMatchObject({ inFlight: 1, coreUsed: 1 });
    const forgeries = [
      { ...held, id: 1 },
      { ...held, id: held.id + 1 },
      { ...held },
      JSON.parse(JSON.stringify(held)),
      new AdmissionTicket(
        held.key,
        held.resource,
        held.graphql,
        held.limit,
        held.countedReset,
        held.hint,
        held.id,
      ),
    ];
    for (const forged of forgeries) {
      limiter.complete(forged as Ticket, { status: 304, cpuMs: 5 });
      limiter.release(forged as Ticket, 5);
      limiter.store.apply(
        { kind: 'complete', ticket: forged as Ticket, status: 304, cpuMs: 5 },
        1.7e12,
        limiter.config,
      );
    }
    expect(limiter.store.read(identity.key)).toEqual(before);
    limiter.complete(held, { status: 304 });
    expect(limiter.store.read(identity.key)).toMatchObject({ inFlight: 0, coreUsed: 0 });
  });
});

// Issue: limits that cannot be fooled. Each case is a reproduction from the issue, as a test.
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/index.js';

describe('a limiter fed a bad clock', () => {
  it('is not locked out by one NaN (or Infinity) clock reading during complete', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      let now = 1.7e12;
      const limiter = createLimiter({ clock: () => now });
      const id = limiter.identify({ kind: 'classic', user: 'u' });
      const v = limiter.admit({ identity: id, method: 'GET' });
      now = bad;
      limiter.complete(v.ticket!, { status: 200 });
      now = 1.7e12 + 1e5;
      const later = limiter.admit({ identity: id, method: 'GET' });
      expect(later.allowed).toBe(true);
      expect(later.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
      for (const value of Object.values(limiter.store.read(id.key)!))
        expect(Number.isFinite(value)).toBe(true);
    }
  });

  it('keeps refilling after one event stamped an hour ahead, and its retry-after is enough', () => {
    let now = 1.7e12;
    const limiter = createLimiter({ clock: () => now });
    const id = limiter.identify({ kind: 'classic', user: 'u' });
    now += 3_600_000;
    limiter.admit({ identity: id, method: 'GET' });
    now -= 3_600_000;
    let denied = null;
    for (let i = 0; i < 200 && denied === null; i++) {
      const v = limiter.admit({ identity: id, method: 'POST' });
      if (!v.allowed) denied = v;
      else limiter.complete(v.ticket!, { status: 201 });
    }
    expect(denied?.rule).toBe('rest_points');
    const wait = Number(denied!.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    now += wait * 1000;
    expect(limiter.admit({ identity: id, method: 'POST' }).allowed).toBe(true);
  });

  it('never answers an x-ratelimit-reset further than one window ahead of the clock', () => {
    let now = 1.7e12;
    const limiter = createLimiter({ clock: () => now });
    const id = limiter.identify({ kind: 'classic', user: 'u' });
    now += 86_400_000; // one reading a day ahead opens a window there
    limiter.admit({ identity: id, method: 'GET' });
    now -= 86_400_000;
    const v = limiter.admit({ identity: id, method: 'GET' });
    expect(Number(v.headers['x-ratelimit-reset']) * 1000).toBeLessThanOrEqual(now + 3_601_000);
    expect(v.headers['x-ratelimit-used']).toBe('1');
  });
});

describe('tickets are handles the store holds', () => {
  it('a JSON copy completed 50 times with 304 refunds nothing and frees no slot: only the object settles', () => {
    let now = 1.7e12;
    const limiter = createLimiter({ clock: () => now });
    const id = limiter.identify({ kind: 'classic', user: 'u' });
    for (let i = 0; i < 99; i++) limiter.complete(limiter.admit({ identity: id }).ticket!, { status: 200 });
    const ticket = limiter.admit({ identity: id }).ticket!;
    const copy = JSON.parse(JSON.stringify(ticket));
    for (let i = 0; i < 50; i++) limiter.complete(copy, { status: 304 });
    now += 1;
    expect(limiter.status(id).rate.used).toBe(100);
    expect(limiter.store.read(id.key)!.inFlight).toBe(1);
    limiter.complete(ticket, { status: 304 }); // the original: the one handle of that slot
    expect(limiter.status(id).rate.used).toBe(99);
    expect(limiter.store.read(id.key)!.inFlight).toBe(0);
  });

  it('a forged ticket, or one released after completion, changes nothing', () => {
    const limiter = createLimiter({ clock: () => 1.7e12 });
    const id = limiter.identify({ kind: 'classic', user: 'u' });
    const held = limiter.admit({ identity: id }).ticket!;
    const before = limiter.store.read(id.key);
    limiter.complete({ ...held, id: held.id + 1000 }, { status: 304, cpuMs: 5000 });
    limiter.release({ ...held, key: 'user:someone-else' });
    expect(limiter.store.read(id.key)).toEqual(before);
    limiter.complete(held, { status: 200 });
    const after = limiter.store.read(id.key);
    limiter.release(JSON.parse(JSON.stringify(held)), 9000);
    expect(limiter.store.read(id.key)).toEqual(after);
  });
});

describe('strict inputs', () => {
  it('identify(null) throws a TollgateError with a code, not a TypeError', () => {
    const limiter = createLimiter();
    for (const bad of [null, undefined, 'classic', 7]) {
      try {
        limiter.identify(bad as never);
        expect.unreachable();
      } catch (error) {
        expect(error).toMatchObject({ code: 'TOLLGATE_INVALID_TOKEN' });
        expect((error as Error).message).toContain('token object');
      }
    }
  });
});

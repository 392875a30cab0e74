// The limiter API shared by the middleware and the simulator: admit, complete, release, status.
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/limiter/create-limiter.js';
import { defaultLimits } from '../../src/limits/default-limits.js';
import { identityOf } from '../../src/limits/identity.js';
import { T0 } from '../limits/support.js';
import { fakeClock } from './fake-clock.js';

describe('createLimiter', () => {
  it('answers synchronously over the memory store, with the shipped table by default', () => {
    const clock = fakeClock();
    const limiter = createLimiter({ clock: clock.now });
    const identity = limiter.identify({
      kind: 'app-installation',
      installation: '1',
      repositoriesCount: 50,
      usersCount: 30,
    });
    const verdict = limiter.admit({ identity, method: 'GET' });
    expect(verdict).toMatchObject({ allowed: true, limit: 7000, remaining: 6999, reset: T0 / 1000 + 3600 });
    expect(limiter.config).toBe(defaultLimits());
  });

  it('charges 5 points to a write and 1 to a read by default, the endpoint cost when given', () => {
    const limiter = createLimiter({ clock: fakeClock().now });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    for (let i = 0; i < 100; i++)
      limiter.complete(limiter.admit({ identity, method: 'POST' }).ticket!, { status: 201 });
    for (let i = 0; i < 80; i++)
      limiter.complete(limiter.admit({ identity, method: 'PATCH' }).ticket!, { status: 200 });
    expect(limiter.admit({ identity, method: 'DELETE' }).rule).toBe('rest_points');
    expect(limiter.admit({ identity, method: 'GET' }).rule).toBe('rest_points');
    expect(limiter.admit({ identity, cost: 0 }).allowed).toBe(true);
  });

  it('uses the injected clock for windows', () => {
    const clock = fakeClock();
    const limiter = createLimiter({ clock: clock.now });
    const identity = limiter.identify({ kind: 'anonymous', ip: '198.51.100.1' });
    for (let i = 0; i < 60; i++) limiter.complete(limiter.admit({ identity }).ticket!, { status: 200 });
    expect(limiter.admit({ identity })).toMatchObject({ allowed: false, rule: 'primary', remaining: 0 });
    clock.advance(3_600_000);
    expect(limiter.admit({ identity }).allowed).toBe(true);
  });

  it('refunds a 304 on complete and frees the slot on release', () => {
    const limiter = createLimiter({ clock: fakeClock().now });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    const first = limiter.admit({ identity });
    expect(limiter.complete(first.ticket!, { status: 304, cpuMs: 2 })).toMatchObject({
      used: 0,
      remaining: 5000,
    });
    const second = limiter.admit({ identity });
    limiter.release(second.ticket!);
    expect(limiter.store.read(identity.key)).toMatchObject({ inFlight: 0, coreUsed: 1 });
  });

  it('settles a ticket once: completing it 100 times frees one slot, not 100', () => {
    const limiter = createLimiter({ clock: fakeClock().now });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    const tickets = Array.from({ length: 100 }, () => limiter.admit({ identity, cost: 0 }).ticket!);
    const first = limiter.complete(tickets[0]!, { status: 200 });
    for (let i = 0; i < 99; i++) expect(limiter.complete(tickets[0]!, { status: 200 })).toBe(first);
    expect(limiter.release(tickets[0]!)).toBe(first);
    expect(limiter.store.read(identity.key)).toMatchObject({ inFlight: 99 });
    expect(limiter.admit({ identity, cost: 0 }).allowed).toBe(true);
    expect(limiter.admit({ identity, cost: 0 }).rule).toBe('concurrency');
  });

  it('refunds a 304 once however often its ticket is completed or released', () => {
    const limiter = createLimiter({ clock: fakeClock().now });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    limiter.admit({ identity });
    const ticket = limiter.admit({ identity }).ticket!;
    limiter.complete(ticket, { status: 304 });
    limiter.complete(ticket, { status: 304 });
    limiter.release(ticket);
    expect(limiter.store.read(identity.key)).toMatchObject({ inFlight: 1, coreUsed: 1 });
  });

  it('throws TOLLGATE_INVALID_OPTION for a cpuMs that is not finite or is negative, and settles nothing', () => {
    const limiter = createLimiter({ clock: fakeClock().now });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    const ticket = limiter.admit({ identity }).ticket!;
    for (const cpuMs of [Number.POSITIVE_INFINITY, Number.NaN, -1, '12' as unknown as number]) {
      expect(() => limiter.complete(ticket, { status: 200, cpuMs })).toThrow(
        expect.objectContaining({
          code: 'TOLLGATE_INVALID_OPTION',
          message: expect.stringContaining('`cpuMs`'),
        }),
      );
      expect(() => limiter.release(ticket, cpuMs)).toThrow(
        expect.objectContaining({ code: 'TOLLGATE_INVALID_OPTION' }),
      );
    }
    expect(limiter.store.read(identity.key)).toMatchObject({ inFlight: 1, cpu: 0 });
    limiter.complete(ticket, { status: 200, cpuMs: 5 });
    expect(limiter.store.read(identity.key)).toMatchObject({ inFlight: 0 });
    expect(limiter.admit({ identity }).allowed).toBe(true);
  });

  it('lets an identity charged a huge finite cpuMs in again within one CPU window (and the second it is stamped in)', () => {
    const clock = fakeClock();
    const limiter = createLimiter({ clock: clock.now });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    limiter.complete(limiter.admit({ identity }).ticket!, { status: 200, cpuMs: 1e12 });
    clock.advance(61_000);
    expect(limiter.admit({ identity }).allowed).toBe(true);
  });

  it('frees each in-flight slot when its own lease of 600 s runs out', () => {
    const clock = fakeClock();
    const limiter = createLimiter({ clock: clock.now });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    for (let i = 0; i < 100; i++) limiter.admit({ identity, cost: 0 });
    clock.advance(599_999);
    expect(limiter.admit({ identity, cost: 0 }).rule).toBe('concurrency');
    clock.advance(1);
    expect(limiter.admit({ identity, cost: 0 }).allowed).toBe(true);
  });

  it('does not undercount after a lease ran out: a late completion of an old ticket frees nothing', () => {
    const clock = fakeClock();
    const limiter = createLimiter({ clock: clock.now });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    const old = limiter.admit({ identity, cost: 0 }).ticket!;
    clock.advance(limiter.config.secondary.concurrency.leaseMs);
    for (let i = 0; i < 100; i++) expect(limiter.admit({ identity, cost: 0 }).allowed).toBe(true);
    expect(limiter.admit({ identity, cost: 0 }).rule).toBe('concurrency');
    limiter.complete(old, { status: 200 });
    expect(limiter.admit({ identity, cost: 0 }).rule).toBe('concurrency'); // still 100 in flight
  });

  it('keeps a settled ticket plain data: its JSON does not change', () => {
    const limiter = createLimiter({ clock: fakeClock().now });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    const ticket = limiter.admit({ identity }).ticket!;
    const before = JSON.stringify(ticket);
    limiter.complete(ticket, { status: 200 });
    expect(JSON.stringify(ticket)).toBe(before);
  });

  it('answers GET /rate_limit without counting it', () => {
    const limiter = createLimiter({ clock: fakeClock().now });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    limiter.admit({ identity });
    limiter.admit({ identity, countsPrimary: false });
    const body = limiter.status(identity);
    expect(body.rate).toMatchObject({ limit: 5000, used: 1, remaining: 4999 });
    expect(body.resources.lfs).toMatchObject({ limit: 3000, used: 0 });
  });

  it('throws TOLLGATE_INVALID_OPTION naming the valid resources for a prototype key or unknown resource', () => {
    const limiter = createLimiter({ clock: fakeClock().now });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    for (const resource of ['__proto__', 'constructor', 'toString', 'valueOf', 'rest']) {
      expect(() => limiter.admit({ identity, resource: resource as never })).toThrow(
        expect.objectContaining({
          code: 'TOLLGATE_INVALID_OPTION',
          message: expect.stringContaining('valid: core, search, graphql, lfs'),
        }),
      );
    }
    expect(limiter.store.read(identity.key)).toBeUndefined();
  });

  it('throws TOLLGATE_INVALID_OPTION for a method that is not a string, and charges nothing', () => {
    const limiter = createLimiter({ clock: fakeClock().now });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    for (const method of [5, null, {}]) {
      expect(() => limiter.admit({ identity, method: method as never })).toThrow(
        expect.objectContaining({
          code: 'TOLLGATE_INVALID_OPTION',
          message: expect.stringContaining('`method`'),
        }),
      );
    }
    expect(limiter.store.read(identity.key)).toBeUndefined();
    expect(limiter.admit({ identity, method: 'get' }).allowed).toBe(true);
  });

  it('throws TOLLGATE_INVALID_OPTION for a cost no bucket can hold', () => {
    const limiter = createLimiter({ clock: fakeClock().now });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    expect(() => limiter.admit({ identity, cost: 901 })).toThrow(
      expect.objectContaining({ code: 'TOLLGATE_INVALID_OPTION' }),
    );
    expect(() => limiter.admit({ identity, cost: 1.5 })).toThrow(
      expect.objectContaining({ code: 'TOLLGATE_INVALID_OPTION' }),
    );
  });

  it('keeps identities plain data: equal to identityOf, same JSON', () => {
    const limiter = createLimiter({ clock: fakeClock().now });
    const token = { kind: 'classic' as const, user: 'octocat' };
    const identity = limiter.identify(token);
    limiter.admit({ identity });
    expect(identity).toEqual(identityOf(token, limiter.config));
    expect(JSON.stringify(identity)).toBe(JSON.stringify(identityOf(token, limiter.config)));
  });

  it('counts correctly when one identity object is shared by limiters over different stores', () => {
    const clock = fakeClock();
    const a = createLimiter({ clock: clock.now });
    const b = createLimiter({ clock: clock.now });
    const shared = a.identify({ kind: 'anonymous', ip: '192.0.2.1' });
    for (let i = 0; i < 3; i++)
      b.admit({ identity: a.identify({ kind: 'anonymous', ip: `192.0.2.${i + 10}` }) });
    for (let i = 0; i < 30; i++) {
      a.admit({ identity: shared });
      b.admit({ identity: shared });
    }
    expect(a.status(shared).rate.used).toBe(30);
    expect(b.status(shared).rate.used).toBe(30);
  });
});

describe('createLimiter({ ipv6Prefix })', () => {
  it('groups anonymous IPv6 callers by the prefix given, over the table', () => {
    const limiter = createLimiter({ ipv6Prefix: 64 });
    expect(limiter.identify({ kind: 'anonymous', ip: '2001:db8:0:ff::1' }).key).toBe('ip:2001:db8:0:ff::/64');
    expect(createLimiter().identify({ kind: 'anonymous', ip: '2001:db8:0:ff::1' }).key).toBe(
      'ip:2001:db8::/56',
    );
  });

  it('refuses a prefix outside 1 to 128, naming it', () => {
    for (const bad of [0, 129, 56.5, Number.NaN, '56'])
      expect(() => createLimiter({ ipv6Prefix: bad as number })).toThrow(
        /`ipv6Prefix` must be an integer from 1 to 128/,
      );
  });
});

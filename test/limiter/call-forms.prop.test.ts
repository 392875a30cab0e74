// The two call forms of `admit` and `complete` are one path: `admit(identity, entry.charge)` is
// `admit({ identity, ...charge })`, `complete(ticket, status, cpuMs)` is
// `complete(ticket, { status, cpuMs })`, verdict for verdict and state for state, over the
// shipped table's own charges (content, search, `GET /rate_limit`'s uncounted primary).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLimiter, createMemoryStore } from '../../src/index.js';
import type { LimitCharge, Ticket } from '../../src/limits.js';
import { T0 } from '../limits/support.js';
import { fcRuns } from '../setup.js';
import { shippedCharges } from './shipped-charges.js';

const charges = shippedCharges;

const stepArb = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('admit' as const),
      charge: fc.nat(charges.length - 1),
      settle: fc.option(fc.constantFrom(403, 404, 422), { nil: undefined }),
      advance: fc.integer({ min: 0, max: 90_000 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('complete' as const),
      index: fc.nat(400),
      status: fc.constantFrom(200, 201, 304, 500),
      cpuMs: fc.option(fc.integer({ min: 0, max: 2_000 }), { nil: undefined }),
    }),
  },
);

// A memory store, or one that hides `settlesAdmissions` (the limiter then admits and completes in
// two calls: the path a store that cannot settle at once takes).
function storeFor(twoCalls: boolean) {
  const store = createMemoryStore();
  if (!twoCalls) return store;
  return new Proxy(store, {
    get: (target, property, receiver) =>
      property === 'settlesAdmissions' ? undefined : Reflect.get(target, property, receiver),
  });
}

describe.each([
  ['settling in one store call', false],
  ['settling in two store calls', true],
])('the call forms of admit and complete, %s', (_name, twoCalls) => {
  it('give the same verdicts and the same state', () => {
    expect(charges.length).toBeGreaterThan(3);
    expect(charges.some((charge) => !charge.countsPrimary)).toBe(true);
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 300 }), (steps) => {
        let now = T0;
        const clock = () => now;
        const positional = createLimiter({ clock, store: storeFor(twoCalls) });
        const objects = createLimiter({ clock, store: storeFor(twoCalls) });
        const caller = { kind: 'classic', user: 'octocat' } as const;
        const a = positional.identify(caller);
        const b = objects.identify(caller);
        const held: [Ticket, Ticket][] = [];
        for (const step of steps) {
          if (step.op === 'admit') {
            now += step.advance;
            const charge = charges[step.charge]!;
            const settle = step.settle === undefined ? undefined : { status: step.settle, cpuMs: 3 };
            const one = positional.admit(a, charge, settle);
            const other = objects.admit({ identity: b, ...charge, settle });
            expect(JSON.stringify(one)).toBe(JSON.stringify(other));
            if (one.ticket !== null && other.ticket !== null) held.push([one.ticket, other.ticket]);
          } else if (held.length > 0) {
            const [first, second] = held[step.index % held.length]!;
            const one = positional.complete(first, step.status, step.cpuMs);
            const other = objects.complete(second, { status: step.status, cpuMs: step.cpuMs });
            expect(JSON.stringify(one)).toBe(JSON.stringify(other));
          }
          expect(positional.store.read(a.key)).toEqual(objects.store.read(b.key));
        }
      }),
      { numRuns: fcRuns },
    );
  });
});

describe('admit(identity, charge) and complete(ticket, status, cpuMs) refuse misuse at once', () => {
  const limiter = createLimiter({ clock: () => T0 });
  const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
  const core: LimitCharge = { resource: 'core', cost: 1, content: false, countsPrimary: true };

  it('names a charge that is not an object', () => {
    expect(() => limiter.admit(identity, null as unknown as LimitCharge)).toThrow(
      /`charge` must be an endpoint's charge object, got `null`/,
    );
  });

  it('names an unknown resource and the valid ones', () => {
    expect(() => limiter.admit(identity, { ...core, resource: 'toString' as 'core' })).toThrow(
      /unknown resource `toString` \(valid: core, search, graphql, lfs\)/,
    );
  });

  it('names a cost no bucket could admit', () => {
    expect(() => limiter.admit(identity, { ...core, cost: 1.5 })).toThrow(
      /`cost` must be an integer in \[0, \d+\], got `1.5`/,
    );
  });

  it('names a settle status the service could not answer', () => {
    expect(() => limiter.admit(identity, core, { status: 42 })).toThrow(
      /`settle.status` must be an HTTP status/,
    );
  });

  it('names a CPU time that is not a finite number of milliseconds', () => {
    const { ticket } = limiter.admit(identity, core);
    expect(ticket).not.toBeNull();
    expect(() => limiter.complete(ticket!, 200, Number.POSITIVE_INFINITY)).toThrow(
      /`cpuMs` must be a finite number of milliseconds >= 0, got `Infinity`/,
    );
    expect(() => limiter.complete(ticket!, 200, -1)).toThrow(/`cpuMs` must be a finite number/);
  });
});

describe('complete refuses a status the service could not answer, in either form', () => {
  it('names the value and the valid range', () => {
    const limiter = createLimiter({ clock: () => T0 });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    const { ticket } = limiter.admit({ identity });
    for (const status of [42, 600, 200.5, Number.NaN])
      expect(() => limiter.complete(ticket!, status)).toThrow(
        new RegExp(`\`status\` must be an HTTP status from 100 to 599, got \`${status}\``),
      );
    expect(() => limiter.complete(ticket!, { status: 0 })).toThrow(/`status` must be an HTTP status/);
    // Refused before anything was settled: the ticket still completes.
    expect(limiter.complete(ticket!, 200).used).toBe(1);
    expect(limiter.store.read(identity.key)?.inFlight).toBe(0);
  });
});

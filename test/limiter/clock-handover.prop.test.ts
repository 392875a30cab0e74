// The limiter hands the clock's reading to tollgate's own memory store in the kernel's scratch
// (src/limits/clocked-store.ts), where any other store gets it as `apply`'s `now`. The two paths
// are one transition: over random admissions, completions and releases, with the clock jumping,
// stepping back and reading fractions of a millisecond, a limiter over a memory store and one over
// a Proxy of a memory store (called through its own `apply`) give the same verdicts and leave the
// same state. The Proxy's `apply` is called for every event: a wrapper is never gone around.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLimiter, createMemoryStore } from '../../src/index.js';
import type { Ticket } from '../../src/limits.js';
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
      caller: fc.nat(2),
      settle: fc.option(fc.constantFrom(403, 404), { nil: undefined }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constantFrom('complete' as const, 'release' as const),
      index: fc.nat(400),
      status: fc.constantFrom(200, 304, 500),
      cpuMs: fc.integer({ min: 0, max: 3_000 }),
    }),
  },
  // The clock: forward by up to two minutes, back by up to five seconds, or to a fraction.
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('clock' as const),
      by: fc.integer({ min: -5_000, max: 120_000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('fraction' as const),
      by: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  },
);

describe('the clock handed over in memory', () => {
  it('gives the verdicts and the state the store would give with the time as an argument', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 250 }), (steps) => {
        let now = T0;
        const clock = () => now;
        let wrappedCalls = 0;
        const wrapped = new Proxy(createMemoryStore(), {
          get(target, property, receiver) {
            if (property !== 'apply') return Reflect.get(target, property, receiver);
            return (...args: Parameters<typeof target.apply>) => {
              wrappedCalls++;
              return target.apply(...args);
            };
          },
        });
        const direct = createLimiter({ clock, store: createMemoryStore() });
        const viaApply = createLimiter({ clock, store: wrapped });
        const callers = ['octocat', 'hubot', 'monalisa'].map((user) => ({ kind: 'classic', user }) as const);
        const held: [Ticket, Ticket][] = [];
        let events = 0;
        for (const step of steps) {
          if (step.op === 'clock') now += step.by;
          else if (step.op === 'fraction') now = Math.floor(now) + step.by;
          else if (step.op === 'admit') {
            const caller = callers[step.caller]!;
            const settle = step.settle === undefined ? undefined : { status: step.settle, cpuMs: 2 };
            const one = direct.admit(direct.identify(caller), charges[step.charge]!, settle);
            const other = viaApply.admit(viaApply.identify(caller), charges[step.charge]!, settle);
            events++;
            expect(JSON.stringify(one)).toBe(JSON.stringify(other));
            if (one.ticket !== null && other.ticket !== null) held.push([one.ticket, other.ticket]);
          } else if (held.length > 0) {
            const [first, second] = held[step.index % held.length]!;
            const one =
              step.op === 'complete'
                ? direct.complete(first, step.status, step.cpuMs)
                : direct.release(first, step.cpuMs);
            const other =
              step.op === 'complete'
                ? viaApply.complete(second, step.status, step.cpuMs)
                : viaApply.release(second, step.cpuMs);
            expect(JSON.stringify(one)).toBe(JSON.stringify(other));
          }
          for (const caller of callers)
            expect(direct.store.read(`user:${caller.user}`)).toEqual(
              viaApply.store.read(`user:${caller.user}`),
            );
        }
        expect(wrappedCalls).toBeGreaterThanOrEqual(events);
      }),
      { numRuns: fcRuns },
    );
  });
});

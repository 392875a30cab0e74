// A ticket settles once: however often an adapter calls complete or release for the same ticket
// (Node emits both `finish` and `close`), in-flight never exceeds the concurrency limit and a 304
// is refunded at most once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/limiter/create-limiter.js';
import type { Ticket } from '../../src/limits/limit-event.js';
import { T0 } from '../limits/support.js';
import { fcRuns } from '../setup.js';

const opArb = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('admit' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constantFrom('complete' as const, 'release' as const),
      index: fc.nat(200),
      status: fc.constantFrom(200, 304),
      times: fc.integer({ min: 1, max: 4 }),
    }),
  },
);

describe('settling a ticket several times', () => {
  it('never lets in-flight exceed 100 nor refunds a 304 twice', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 400 }), (ops) => {
        const limiter = createLimiter({ clock: () => T0 });
        const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
        const tickets: Ticket[] = [];
        const settled = new Set<number>();
        let refunds = 0;
        for (const op of ops) {
          if (op.op === 'admit') {
            const verdict = limiter.admit({ identity, cost: 0 });
            if (verdict.ticket) tickets.push(verdict.ticket);
            continue;
          }
          if (tickets.length === 0) continue;
          const index = op.index % tickets.length;
          for (let i = 0; i < op.times; i++) {
            if (op.op === 'complete') limiter.complete(tickets[index]!, { status: op.status });
            else limiter.release(tickets[index]!);
          }
          if (!settled.has(index) && op.op === 'complete' && op.status === 304) refunds++;
          settled.add(index);
          const state = limiter.store.read(identity.key)!;
          expect(state.inFlight).toBeLessThanOrEqual(100);
          expect(state.inFlight).toBe(tickets.length - settled.size);
          expect(state.coreUsed).toBe(tickets.length - refunds);
        }
      }),
      { numRuns: fcRuns },
    );
  });
});

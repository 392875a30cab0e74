// The memory store's ledger by row (first ticket in typed arrays, the rest in a list) answers
// every call as the ledger by key does: the model here, over random holds, claims, expiries and
// forgets on a few rows (rows past the first typed-array block too).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRowTicketLedger } from '../../src/limits/row-ticket-ledger.js';
import { createTicketLedger } from '../../src/limits/ticket-ledger.js';

const rowArb = fc.constantFrom(0, 1, 2, 1500);
const opArb = fc.oneof(
  fc.record({ op: fc.constant('hold' as const), row: rowArb, lease: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ op: fc.constant('claim' as const), row: rowArb, pick: fc.nat(40), own: fc.boolean() }),
  fc.record({ op: fc.constant('live' as const), row: rowArb }),
  fc.record({ op: fc.constant('forget' as const), row: rowArb }),
  fc.record({ op: fc.constant('tick' as const), by: fc.integer({ min: 0, max: 3 }) }),
);

describe('createRowTicketLedger', () => {
  it('answers every call as the ledger by key', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 20, maxLength: 300 }), (ops) => {
        const byRow = createRowTicketLedger();
        const byKey = createTicketLedger();
        const issued: { id: number; row: number }[] = [];
        let t = 0;
        for (const step of ops) {
          if (step.op === 'tick') t += step.by;
          else if (step.op === 'hold') {
            const id = byRow.nextId();
            expect(byKey.nextId()).toBe(id);
            issued.push({ id, row: step.row });
            byRow.time[0] = t + step.lease;
            byRow.hold(step.row, id);
            byKey.hold(`k${step.row}`, id, t + step.lease);
          } else if (step.op === 'claim') {
            // Mostly a ticket on the row that holds it; sometimes on another row.
            const ticket = issued[step.pick % Math.max(1, issued.length)] ?? { id: 1, row: 0 };
            const row = step.own ? ticket.row : step.row;
            byRow.time[0] = t;
            expect(byRow.claim(row, ticket.id)).toBe(byKey.claim(`k${row}`, ticket.id, t));
          } else if (step.op === 'live') {
            byRow.time[0] = t;
            expect(byRow.live(step.row)).toBe(byKey.live(`k${step.row}`, t));
          } else {
            byRow.forget(step.row);
            byKey.forget(`k${step.row}`);
          }
        }
        byRow.time[0] = t;
        for (const row of [0, 1, 2, 1500]) expect(byRow.live(row)).toBe(byKey.live(`k${row}`, t));
      }),
    );
  });
});

// The exact token bucket and the packed state layout, on their own.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IDENTITY_STATE_FIELDS, type IdentityState } from '../../src/limits/identity-state.js';
import { packState, SLOT, STATE_WIDTH, unpackState } from '../../src/limits/state-layout.js';
import { bucketFits, bucketWaitMs, debtWaitMs, refillSpent } from '../../src/limits/token-bucket.js';

const capacityArb = fc.integer({ min: 1, max: 5000 });
const windowArb = fc.constantFrom(1000, 6000, 60_000, 3_600_000);

describe('token bucket', () => {
  it('admits at most C + C*t/W for any sequence of charges and waits', () => {
    fc.assert(
      fc.property(
        capacityArb,
        windowArb,
        fc.array(fc.tuple(fc.nat(100_000), fc.nat(50)), { maxLength: 80 }),
        (capacity, windowMs, tries) => {
          let spent = 0;
          let now = 0;
          const admitted: { at: number; cost: number }[] = [];
          for (const [wait, rawCost] of tries) {
            const cost = Math.min(rawCost, capacity);
            spent = refillSpent(spent, capacity, wait);
            now += wait;
            // INVARIANT: spent stays >= 0.
            expect(spent).toBeGreaterThanOrEqual(0);
            if (bucketFits(spent, cost, capacity, windowMs)) {
              spent += cost * windowMs;
              admitted.push({ at: now, cost });
            }
          }
          for (let i = 0; i < admitted.length; i++) {
            let sum = 0;
            for (let j = i; j < admitted.length; j++) {
              sum += admitted[j]!.cost;
              expect(sum * windowMs).toBeLessThanOrEqual(
                capacity * windowMs + capacity * (admitted[j]!.at - admitted[i]!.at),
              );
            }
          }
        },
      ),
    );
  });

  it('bucketWaitMs is the exact earliest time the cost fits', () => {
    fc.assert(
      fc.property(
        capacityArb,
        windowArb,
        fc.nat(10_000),
        fc.nat(60),
        (capacity, windowMs, spentPoints, rawCost) => {
          const cost = Math.min(rawCost, capacity);
          const spent = Math.min(spentPoints * windowMs, capacity * windowMs);
          const wait = bucketWaitMs(spent, cost, capacity, windowMs);
          expect(bucketFits(refillSpent(spent, capacity, wait), cost, capacity, windowMs)).toBe(true);
          if (wait > 0)
            expect(bucketFits(refillSpent(spent, capacity, wait - 1), cost, capacity, windowMs)).toBe(false);
        },
      ),
    );
  });

  it('debtWaitMs is the exact earliest time a bucket charged after the fact is out of debt', () => {
    fc.assert(
      fc.property(capacityArb, windowArb, fc.nat(100_000_000), (capacity, windowMs, spentRaw) => {
        const spent = spentRaw * 7;
        const wait = debtWaitMs(spent, capacity, windowMs);
        const full = capacity * windowMs;
        expect(refillSpent(spent, capacity, wait)).toBeLessThan(full);
        if (wait > 0) expect(refillSpent(spent, capacity, wait - 1)).toBeGreaterThanOrEqual(full);
      }),
    );
  });
});

describe('packed state layout', () => {
  it('keeps the fields in IDENTITY_STATE_FIELDS order and round-trips every state', () => {
    expect(IDENTITY_STATE_FIELDS).toHaveLength(STATE_WIDTH);
    IDENTITY_STATE_FIELDS.forEach((field, index) => {
      expect(SLOT[field]).toBe(index);
    });
    const stateArb = fc
      .tuple(...IDENTITY_STATE_FIELDS.map(() => fc.nat()))
      .map(
        (values) =>
          Object.fromEntries(IDENTITY_STATE_FIELDS.map((f, i) => [f, values[i]])) as unknown as IdentityState,
      );
    fc.assert(
      fc.property(stateArb, fc.nat(3), (state, offset) => {
        const row = new Float64Array(STATE_WIDTH * 4);
        packState(state, row, offset * STATE_WIDTH);
        expect(unpackState(row, offset * STATE_WIDTH)).toEqual(state);
      }),
    );
  });
});

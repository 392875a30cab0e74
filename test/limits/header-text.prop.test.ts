// The header texts' tables (counts below 65,536, larger counts and reset seconds, each remembered
// in a table) answer exactly what String() does, in any order of calls: a slot that answered for
// another number, or an empty slot, never leaks into an answer.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { countText, resetText } from '../../src/limits/header-text.js';

// Numbers that share slots: large counts 64 apart share a large-count slot, seconds 1,024 apart a
// reset slot; -1, 0, -0, NaN and the infinities are the values an empty or stale slot would confuse.
const slotMates = fc
  .tuple(fc.integer({ min: 65_536, max: 2 ** 40 }), fc.nat(8))
  .map(([base, k]) => base + 64 * k);
const number = fc.oneof(
  fc.nat(70_000),
  slotMates,
  fc.constantFrom(-1, 0, -0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e12, 2 ** 53),
  fc.integer({ min: -(2 ** 31), max: -1 }),
  fc.double(),
);
const seconds = fc.oneof(
  fc.integer({ min: 1_700_000_000, max: 1_700_000_000 + 4 * 1024 }),
  fc.constantFrom(-1, 0, 1_700_000_000 + 1024, 1_700_000_000 + 2048),
);

describe('header texts', () => {
  // The tables live in the module and fill as they answer: only a fresh module has empty slots.
  const fresh = async () => {
    vi.resetModules();
    return import('../../src/limits/header-text.js');
  };

  it("countText(-1) answers '-1' from a fresh module (an empty slot's -1 key answered '')", async () => {
    const texts = await fresh();
    expect(texts.countText(-1)).toBe('-1');
    expect(texts.countText(Number.NaN)).toBe('NaN');
    expect(texts.countText(Number.NaN)).toBe('NaN');
  });

  it("resetText(-1) answers '-1' from a fresh module (an empty slot's -1 key answered '')", async () => {
    const texts = await fresh();
    expect(texts.resetText(-1)).toBe('-1');
  });

  it('countText(n) is String(n) for any sequence of numbers', () => {
    fc.assert(
      fc.property(fc.array(number, { minLength: 1, maxLength: 60 }), (counts) => {
        for (const n of counts) expect(countText(n)).toBe(String(n));
      }),
    );
  });

  it('a large limit read between changing counts keeps its own text', () => {
    // The shape of a roomy config's answers: the same limit, then a remaining that changes.
    const limit = 1e12;
    for (let used = 0; used < 200; used++) {
      expect(countText(limit)).toBe('1000000000000');
      expect(countText(limit - used)).toBe(String(limit - used));
    }
  });

  it('resetText(s) is String(s) for any sequence of seconds', () => {
    fc.assert(
      fc.property(fc.array(seconds, { minLength: 1, maxLength: 60 }), (all) => {
        for (const s of all) expect(resetText(s)).toBe(String(s));
      }),
    );
  });
});

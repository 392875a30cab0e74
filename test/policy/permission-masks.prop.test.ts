import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PermissionAlternative } from '../../src/policy/permission-denial.js';
import {
  grantMask,
  MASKED_PERMISSIONS,
  meetsLevels,
  meetsMasks,
  needMask,
} from '../../src/policy/permission-masks.js';
import { fcRuns } from '../setup.js';

// A catalog of 1 to 15 permissions, a token's level codes over it, and alternatives whose slug
// indexes may run one past the catalog (a permission the catalog lacks, as planEntry numbers it).
const case_ = fc.integer({ min: 1, max: MASKED_PERMISSIONS }).chain((size) =>
  fc.record({
    size: fc.constant(size),
    levels: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: size, maxLength: size }),
    alternatives: fc.array(
      fc.array(fc.tuple(fc.integer({ min: 0, max: size }), fc.integer({ min: 1, max: 2 })), { maxLength: 4 }),
      { maxLength: 4 },
    ),
  }),
);

function alternative(pairs: readonly (readonly [number, number])[]): PermissionAlternative {
  return {
    slugs: pairs.map(([index]) => `p${index}`),
    levels: pairs.map(([, code]) => (code === 2 ? 'write' : 'read')),
    indexes: Int32Array.from(pairs, ([index]) => index),
    codes: Uint8Array.from(pairs, ([, code]) => code),
  };
}

describe('permission masks', () => {
  // INVARIANT: the masks answer as the level codes they are made from, for any grant and requirement.
  it('meet a requirement exactly when the level codes do', () => {
    fc.assert(
      fc.property(case_, ({ size, levels, alternatives }) => {
        const codes = Uint8Array.from(levels);
        const alts = alternatives.map(alternative);
        const needs = alts.map((alt) => needMask(alt, size));
        expect(meetsMasks(needs, grantMask(codes))).toBe(meetsLevels(alts, codes));
      }),
      { numRuns: fcRuns * 5 },
    );
  });

  it('never meet an alternative naming a permission the catalog lacks', () => {
    const alt = alternative([[3, 1]]);
    expect(meetsMasks([needMask(alt, 3)], grantMask(Uint8Array.of(2, 2, 2)))).toBe(false);
    expect(meetsLevels([alt], Uint8Array.of(2, 2, 2))).toBe(false);
  });
});

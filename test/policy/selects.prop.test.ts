import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldAscii, selects } from '../../src/policy/token-view.js';
import { fcRuns } from '../setup.js';

// The definition selects must keep: compare `owner/repo` and each name after foldAscii.
function selectsByFolding(names: readonly string[], owner: string, repo: string): boolean {
  const wanted = foldAscii(`${owner}/${repo}`);
  return names.some((name) => foldAscii(name) === wanted);
}

// Letters in both cases, `/`, `-`, and a few non-ASCII look-alikes (Kelvin sign, dotless i, long s).
const piece = fc.string({
  unit: fc.constantFrom('a', 'A', 'b', 'B', 'k', 'K', '-', '\u212a', '\u0131', 'ſ', 'é', 'É'),
  maxLength: 4,
});

describe('selects', () => {
  it('answers as folding both sides with foldAscii would, without building a string', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(piece, piece), { maxLength: 4 }), piece, piece, (pairs, owner, repo) => {
        const names = pairs.map(([o, r]) => `${o}/${r}`);
        // The names as a token would carry them, and some spelled like the request in another case.
        const withVariants = [...names, `${owner.toUpperCase()}/${repo}`];
        for (const list of [names, withVariants])
          expect(selects(list.map(foldAscii), owner, repo)).toBe(selectsByFolding(list, owner, repo));
      }),
      { numRuns: fcRuns },
    );
  });
});

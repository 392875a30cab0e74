import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildEdgeIndex, findEdge, findEdgeFolded } from '../../src/routes/edge-index.js';
import { buildEdgeTable, FOLDED_SLOT, findSlot, NO_SLOT } from '../../src/routes/edge-table.js';
import { fcRuns } from '../setup.js';
import { ROUTE_SET } from '../support/route-set.js';

const statics = [...new Set(ROUTE_SET.flatMap((route) => route.template.split('/')))].filter(
  (part) => part !== '' && !part.startsWith('{'),
);
const flipCase = (text: string) =>
  [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
// A state's statics: table texts, some differing only in letter case, as some tables have.
const texts = fc.uniqueArray(
  fc.oneof(
    fc.constantFrom(...statics),
    fc.string({ unit: fc.constantFrom(...'aAbB-_.'), minLength: 1, maxLength: 4 }),
  ),
  {
    maxLength: 40,
  },
);
// Segments: the texts themselves, in other letter case, and anything else of the same alphabet.
const segment = (list: readonly string[]) =>
  fc.oneof(
    ...(list.length === 0 ? [] : [fc.constantFrom(...list), fc.constantFrom(...list).map(flipCase)]),
    fc.string({ unit: fc.constantFrom(...'aAbBsS-_.'), minLength: 1, maxLength: 6 }),
    fc.constantFrom(...statics).map(flipCase),
  );

describe('edge table', () => {
  // INVARIANT: findSlot answers as findEdge, then findEdgeFolded, over the same statics.
  it('finds the exact static, else says whether one is there in other letter case', () => {
    fc.assert(
      fc.property(
        texts.chain((list) => fc.tuple(fc.constant(list), segment(list), fc.constantFrom('/', '/x/'))),
        ([list, seg, prefix]) => {
          const edges = new Map(list.map((text, i) => [text, i]));
          const index = buildEdgeIndex(edges);
          const table = buildEdgeTable(edges);
          const target = `${prefix}${seg}/tail`;
          const from = prefix.length;
          const to = from + seg.length;
          const slot = findSlot(table, target, from, to);
          const exact = findEdge(index, target, from, to);
          if (exact !== undefined) expect(table.slots[slot + 1]).toBe(exact);
          else
            expect(slot).toBe(findEdgeFolded(index, target, from, to) === undefined ? NO_SLOT : FOLDED_SLOT);
        },
      ),
      { numRuns: fcRuns * 5 },
    );
  });

  it('finds nothing in an empty table', () => {
    expect(findSlot(buildEdgeTable(new Map()), '/a', 1, 2)).toBe(NO_SLOT);
  });
});

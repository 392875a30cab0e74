// The one-pass walk (locateRoute: segments found and probed in a single read of the path) against
// the careful path, on targets that mix plain segments with everything the walk must hand over:
// `%`, backslashes, control and non-ASCII characters, empty and dot segments, statics in other
// letter case, a query or fragment, wherever they fall (before or after the walk loses its way).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildEdgeTable, findSlot, NO_SLOT, probeAhead } from '../../src/routes/edge-table.js';
import { compileRoutes, matchRoute } from '../../src/routes/route-tree.js';
import { fcRuns } from '../setup.js';
import { expectCarefulAnswer, ROUTE_SET, ROUTE_STATICS } from '../support/route-set.js';

const tree = compileRoutes(ROUTE_SET);
const statics = ROUTE_STATICS;

const plainValue = fc.constantFrom('octo', 'app', 'app.git', 'x.', '.x', '7', 'a-b', 'v1.2');
const oddValue = fc.constantFrom(
  '',
  '.',
  '..',
  '.git',
  'a%20b',
  'a%2Fb',
  '%zz',
  'a\\b',
  'a\tb',
  'a\x7fb',
  'é',
  '😀',
  'a b',
  "a'b",
);
const upper = fc.constantFrom(...statics).map((text) => text.toUpperCase());
const segment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...statics) },
  { weight: 3, arbitrary: plainValue },
  { weight: 1, arbitrary: oddValue },
  { weight: 1, arbitrary: upper },
);
// Half the time a route's template filled in, with one odd value somewhere, so matches are common.
const filled = fc
  .tuple(
    fc.constantFrom(...ROUTE_SET.map((route) => route.template)),
    fc.array(fc.oneof({ weight: 5, arbitrary: plainValue }, { weight: 1, arbitrary: oddValue }), {
      minLength: 6,
      maxLength: 6,
    }),
  )
  .map(([template, values]) => {
    let i = 0;
    return template.replace(/\{[^}]+\}/g, () => values[i++]!);
  });
const random = fc.array(segment, { maxLength: 9 }).map((segments) => `/${segments.join('/')}`);
const target = fc
  .tuple(
    fc.oneof(filled, random, fc.constantFrom('', '/', '//', '/?x', '/#f', 'repos', '?', '/a/')),
    fc.constantFrom('', '/', '?q=1', '#f', '?a/%zz#c', '//x'),
  )
  .map(([path, suffix]) => path + suffix);
const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'get');

describe('locateRoute: one pass, the careful path as the model', () => {
  it('answers as the careful path on any target', () => {
    fc.assert(
      fc.property(method, target, (m, t) => {
        expectCarefulAnswer(tree, m, t);
      }),
      { numRuns: fcRuns * 5 },
    );
  });

  it('hands a bad segment after a dead end to the careful path, and says no match after a plain one', () => {
    expect(matchRoute(tree, 'GET', '/nowhere/x/%zz').kind).toBe('bad_path');
    expect(matchRoute(tree, 'GET', '/nowhere/x/..').kind).toBe('bad_path');
    expect(matchRoute(tree, 'GET', '/nowhere/x/y?q=%zz').kind).toBe('no_match');
    expect(matchRoute(tree, 'GET', '/').kind).toBe('matched');
    expect(matchRoute(tree, 'GET', '/?q=1').kind).toBe('matched');
  });

  it('walks paths longer than its first offsets buffer', () => {
    const deep = Array.from({ length: 300 }, (_, i) => `d${i}`).join('/');
    const found = matchRoute(tree, 'GET', `/repos/o/r/contents/${deep}?ref=x`);
    expect(found.kind === 'matched' ? { ...found.params } : found).toEqual({
      owner: 'o',
      repo: 'r',
      path: deep,
    });
    expect(matchRoute(tree, 'GET', `/nowhere/${deep}`).kind).toBe('no_match');
  });
});

describe('probeAhead: a static looked up before its segment is read', () => {
  const texts = fc.uniqueArray(
    fc.oneof(
      fc.constantFrom(...statics),
      fc.string({ unit: fc.constantFrom(...'aAbBs-_.'), minLength: 1, maxLength: 4 }),
    ),
    { maxLength: 40 },
  );
  // The segment: a text, a text with more after it (`issue` then `s`), in other letter case, or
  // anything; then whatever may follow a segment.
  const segment = (list: readonly string[]) =>
    fc.oneof(
      ...(list.length === 0 ? [] : [fc.constantFrom(...list)]),
      ...(list.length === 0 ? [] : [fc.constantFrom(...list).map((text) => text.toUpperCase())]),
      fc.string({ unit: fc.constantFrom(...'aAbBs-_.'), minLength: 1, maxLength: 6 }),
    );
  const after = fc.constantFrom('', '/', '/x', '?q', '#f', 's', 'a/b', '%', '\\');

  // INVARIANT: the exact static findSlot finds once the segment's end is known, else NO_SLOT.
  it('finds the static that is the whole segment, as findSlot does at the segment end', () => {
    fc.assert(
      fc.property(
        texts.chain((list) => fc.tuple(fc.constant(list), segment(list), after)),
        ([list, seg, rest]) => {
          const table = buildEdgeTable(new Map(list.map((text, i) => [text, i])));
          const target = `/${seg}${rest}`;
          let end = 1;
          while (end < target.length && !'/?#'.includes(target[end]!)) end++;
          const slot = findSlot(table, target, 1, end);
          expect(probeAhead(table.slots, 0, table.mask, target, 1)).toBe(slot >= 0 ? slot : NO_SLOT);
        },
      ),
      { numRuns: fcRuns * 5 },
    );
  });
});

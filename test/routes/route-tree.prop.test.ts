import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRoutes, matchRoute } from '../../src/routes/route-tree.js';
import { fcRuns } from '../setup.js';
import {
  PARTS,
  plain,
  ROUTES,
  rawSegments,
  reference,
  STATICS,
  verdictOf,
} from '../support/route-reference.js';
import { requestFor } from '../support/route-requests.js';

const tree = compileRoutes(ROUTES);

const METHODS = [...new Set(ROUTES.map((route) => route.method)), 'HEAD', 'get'];
const method = fc.constantFrom(...METHODS);

const byteSegment = fc
  .uint8Array({ minLength: 1, maxLength: 6 })
  .map((bytes) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''));

/** Paths over the table's own segments, parameter-like values, and random characters and bytes. */
const anyTarget = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }).map((s) => `/${s}`),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(...STATICS),
        fc.string({ unit: 'binary', maxLength: 6 }),
        fc.string({ unit: fc.constantFrom(...'ab.%2F5cCe/\\?#'), maxLength: 6 }),
        byteSegment,
      ),
      { maxLength: 8 },
    )
    .map((segments) => `/${segments.join('/')}`),
);

// Paths built from the table's own segments and values that tell: `.git` stripping, raw-vs-decoded
// statics, encoded slashes (allowed or not, with dot or empty pieces), and raw bad segments that
// must win over no_match.
const VALUES = ['x', 'Octo', 'app.git', 'heads', 'main', '1', 'a%20b', '%61ctions'];
const BAD = ['.git', '..', '%2e', '%zz'];
const SLASHED = ['a%2Fb', 'a%2f..', '%2F', 'r%2Fx%2Fy', 'x%2F', '.%2Fx'];
const POOL = [...STATICS, ...VALUES, ...BAD, ...SLASHED];
const poolSegment = fc.constantFrom(...POOL);
const paramSegment = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...VALUES) },
  { weight: 3, arbitrary: fc.constantFrom(...SLASHED) },
  { weight: 1, arbitrary: fc.constantFrom(...BAD) },
  { weight: 1, arbitrary: poolSegment },
);
// Mostly the shape of some template (its statics, pool values for its parameters, now and then a
// segment swapped, one dropped or some added), so near misses and priority contests are common.
const poolTarget = fc
  .tuple(
    fc
      .nat({ max: ROUTES.length - 1 })
      .chain((index) =>
        fc.tuple(
          fc.oneof({ weight: 3, arbitrary: fc.constant(ROUTES[index]!.method) }, method),
          ...PARTS[index]!.map((part) =>
            part.kind === 'static'
              ? fc.oneof(
                  { weight: 6, arbitrary: fc.constant(part.text) },
                  { weight: 1, arbitrary: poolSegment },
                )
              : part.kind === 'multi'
                ? fc.array(paramSegment, { minLength: 1, maxLength: 3 }).map((segments) => segments.join('/'))
                : paramSegment,
          ),
        ),
      ),
    fc.nat({ max: 7 }).map((n) => n === 0),
    fc.oneof(
      { weight: 6, arbitrary: fc.constant([]) },
      fc.array(poolSegment, { minLength: 1, maxLength: 2 }),
    ),
    suffixArbitrary(),
  )
  .map(([[m, ...segments], drop, extra, tail]) => {
    const all = [...(drop ? segments.slice(0, -1) : segments), ...extra];
    return { method: m, target: `/${all.join('/')}${tail}` };
  });
const randomPoolTarget = fc
  .tuple(method, fc.array(poolSegment, { maxLength: 8 }), suffixArbitrary())
  .map(([m, segments, tail]) => ({ method: m, target: `/${segments.join('/')}${tail}` }));
const poolRequest = fc.oneof({ weight: 4, arbitrary: poolTarget }, randomPoolTarget);

function suffixArbitrary(): fc.Arbitrary<string> {
  return fc.constantFrom('', '?', '?a=1&b=%2F', '#frag', '?q=x#y');
}

const suffix = suffixArbitrary();

describe('matchRoute properties', () => {
  it('matches every template, filled with random valid values, to itself with the decoded params', () => {
    const request = fc
      .nat({ max: ROUTES.length - 1 })
      .chain((index) => requestFor(index).map((generated) => ({ index, ...generated })));
    fc.assert(
      fc.property(request, suffix, ({ index, path, params }, tail) => {
        const route = ROUTES[index]!;
        expect(plain(matchRoute(tree, route.method, path + tail))).toEqual({
          kind: 'matched',
          route: index,
          params,
        });
      }),
      { numRuns: fcRuns },
    );
  });

  it('never throws on random strings and byte sequences, and a match spells the decoded path', () => {
    fc.assert(
      fc.property(method, anyTarget, (m, target) => {
        const result = matchRoute(tree, m, target);
        expect(['matched', 'bad_path', 'no_match']).toContain(result.kind);
        if (result.kind === 'bad_path') {
          expect(result.message).toMatch(/^[a-z][^\r\n]*`[^\r\n]*`/);
          return;
        }
        if (result.kind !== 'matched') return;
        const route = ROUTES[result.route]!;
        expect(route.method).toBe(m);
        // Repeated and trailing slashes are read as one and none; a match never stands on an
        // empty segment.
        const raw = rawSegments(target.split(/[?#]/)[0]!).filter((segment) => segment !== '');
        const decoded = raw.map((segment) => decodeURIComponent(segment));
        const parts = PARTS[result.route]!;
        expect(Object.keys(result.params).sort()).toEqual(
          parts.flatMap((part) => (part.kind === 'static' ? [] : [part.name])).sort(),
        );
        const spelled = parts.map((part, i) => {
          if (part.kind === 'static') {
            // Static segments are decided in any letter case, as the case-insensitive routers do.
            expect(raw[i]!.toLowerCase()).toBe(part.text.toLowerCase());
            return decoded[i]!;
          }
          const value = result.params[part.name]!;
          // `.git` is the one thing the matcher takes away from a value.
          return part.name === 'repo' && decoded[i] === `${value}.git` ? decoded[i] : value;
        });
        expect(spelled.join('/')).toBe(decoded.join('/'));
      }),
      { numRuns: fcRuns },
    );
  });

  it('answers the same for the same input, on the same or a recompiled tree', () => {
    const again = compileRoutes(ROUTES);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.tuple(method, anyTarget).map(([m, target]) => ({ method: m, target })),
          poolRequest,
        ),
        ({ method: m, target }) => {
          const first = plain(matchRoute(tree, m, target));
          expect(plain(matchRoute(tree, m, target))).toEqual(first);
          expect(plain(matchRoute(again, m, target))).toEqual(first);
        },
      ),
      { numRuns: fcRuns },
    );
  });

  it('agrees with a naive backtracking matcher on paths built from the table segments', () => {
    fc.assert(
      fc.property(poolRequest, ({ method: m, target }) => {
        expect(verdictOf(matchRoute(tree, m, target))).toEqual(reference(m, target));
      }),
      // Cheap runs, and some contests (an encoded slash in one parameter of one route) are rare.
      { numRuns: fcRuns * 5 },
    );
  });

  it('agrees with the naive matcher on paths that spell a route with random values', () => {
    const request = fc.nat({ max: ROUTES.length - 1 }).chain((index) =>
      fc.tuple(requestFor(index), fc.nat({ max: ROUTES.length - 1 })).map(([generated, other]) => ({
        path: generated.path,
        // Sometimes ask with another route's method: the answer must still agree.
        method: ROUTES[other % 3 === 0 ? other : index]!.method,
      })),
    );
    fc.assert(
      fc.property(request, ({ path, method: m }) => {
        expect(verdictOf(matchRoute(tree, m, path))).toEqual(reference(m, path));
      }),
      { numRuns: fcRuns },
    );
  });
});

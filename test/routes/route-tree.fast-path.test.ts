// The matcher's fast path (scanPath, findEdge, readParams) and where it hands over to the careful one.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildEdgeIndex, findEdge } from '../../src/routes/edge-index.js';
import { planParams, readParams } from '../../src/routes/param-plan.js';
import { parseTemplate } from '../../src/routes/parse-template.js';
import { compileRoutes, matchRoute } from '../../src/routes/route-tree.js';
import { scanPath, scratch } from '../../src/routes/scan-path.js';
import { fcRuns } from '../setup.js';
import { expectCarefulAnswer, ROUTE_SET, ROUTE_STATICS } from '../support/route-set.js';

const tree = compileRoutes(ROUTE_SET);

/** The segments scanPath found, as strings, or -1. */
function scanned(target: string): string[] | -1 {
  const count = scanPath(target);
  if (count < 0) return -1;
  const { bounds } = scratch;
  return Array.from({ length: count }, (_, i) => target.slice(bounds[i]!, bounds[i + 1]! - 1));
}

describe('scanPath', () => {
  it('finds the segments of a plain path, up to the query string or fragment', () => {
    expect(scanned('/repos/o/r')).toEqual(['repos', 'o', 'r']);
    expect(scanned('/repos/o/r?x=/a/%zz')).toEqual(['repos', 'o', 'r']);
    expect(scanned('/users/a b#frag/..')).toEqual(['users', 'a b']);
    expect(scanned('/')).toEqual([]);
    expect(scanned('/?x')).toEqual([]);
    expect(scanned('/.x/..y/x.')).toEqual(['.x', '..y', 'x.']);
  });

  it('leaves to splitPath whatever it would check or decode', () => {
    for (const target of ['', 'x', '?', '//', '/a/', '/a//b', '/a/?x', '/.', '/a/..', '/a/./b', '/a%20b']) {
      expect(scanPath(target), target).toBe(-1);
    }
    for (const odd of ['\\', '\t', '\x00', '\x7f', 'é', '\ud800', '😀']) {
      expect(scanPath(`/users/a${odd}b`), JSON.stringify(odd)).toBe(-1);
    }
  });

  it('grows its buffer for long paths', () => {
    const segments = Array.from({ length: 1000 }, (_, i) => `s${i}`);
    expect(scanned(`/${segments.join('/')}`)).toEqual(segments);
  });
});

describe('findEdge', () => {
  const index = buildEdgeIndex(
    new Map([
      ['issues', 1],
      ['issue', 2],
      ['pulls', 3],
      ['iss', 4],
      ['a', 5],
    ]),
  );

  it('finds a static by its offsets, exactly and case-sensitively', () => {
    expect(findEdge(index, '/x/issues/1', 3, 9)).toBe(1);
    expect(findEdge(index, '/x/issue/1', 3, 8)).toBe(2);
    expect(findEdge(index, '/pulls', 1, 6)).toBe(3);
    expect(findEdge(index, '/a', 1, 2)).toBe(5);
    expect(findEdge(index, '/Issues', 1, 7)).toBeUndefined();
    expect(findEdge(index, '/issuez', 1, 7)).toBeUndefined();
    expect(findEdge(index, '/issues-long', 1, 12)).toBeUndefined();
  });

  it('finds nothing in an empty index', () => {
    expect(findEdge(buildEdgeIndex(new Map()), '/a', 1, 2)).toBeUndefined();
  });
});

describe('readParams', () => {
  it('slices only the parameters, the multi-segment one to the end, .git stripped from repo', () => {
    const plan = planParams(parseTemplate('/repos/{owner}/{repo}/contents/{path}', 'path', [], ['repo']));
    const target = '/repos/o/app.git/contents/a/b.md?ref=x';
    const params = readParams(plan, target, scratch.bounds, scanPath(target));
    expect(params).toEqual({ owner: 'o', repo: 'app', path: 'a/b.md' });
    expect('toString' in params!).toBe(false);
    expect(Object.getPrototypeOf(Object.getPrototypeOf(params))).toBeNull();
  });

  it('answers null for a repo of exactly .git, for the careful path to reject', () => {
    const plan = planParams(parseTemplate('/repos/{owner}/{repo}', undefined, [], ['repo']));
    expect(readParams(plan, '/repos/o/.git', scratch.bounds, scanPath('/repos/o/.git'))).toBeNull();
  });
});

describe('matchRoute across the fast and careful paths', () => {
  const plain = (method: string, target: string) => {
    const result = matchRoute(tree, method, target);
    return result.kind === 'matched' ? { ...result, params: { ...result.params } } : result;
  };

  it('answers the same for a path spelled plainly and with percent-encoding', () => {
    const pairs = [
      ['/repos/octo/app/issues/7', '/repos/octo/app/issues/7?q=%61'],
      ['/repos/octo/app.git/contents/a/b', '/repos/octo/app.git/contents/a%2Fb'],
      ['/users/a b', '/users/a%20b'],
    ];
    for (const [fast, careful] of pairs) {
      expect(plain('GET', fast!).kind).toBe('matched');
      expect(plain('GET', fast!)).toEqual(plain('GET', careful!));
    }
  });

  it('keeps the careful answer for a repo of exactly .git and for a dead end with a bad segment after', () => {
    expect(matchRoute(tree, 'GET', '/repos/octo/.git').kind).toBe('bad_path');
    expect(matchRoute(tree, 'GET', '/nothing/here/..').kind).toBe('bad_path');
    expect(matchRoute(tree, 'GET', '/nothing/here/x').kind).toBe('no_match');
  });
});

describe('matchRoute: fast path invariant', () => {
  const statics = ROUTE_STATICS;
  const segment = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...statics) },
    {
      weight: 3,
      arbitrary: fc.constantFrom('octo', 'app', 'app.git', '.git', 'x.', '.x', '7', 'a b', "a'b"),
    },
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...'ab.-_~:@'), maxLength: 5 }) },
  );
  const value = fc.constantFrom('octo', 'app', 'app.git', '.git', 'x.', '.x', '7', 'a b', 'a/b', 'actions');
  // Half the time a route's template with its parameters filled in, so matches are common.
  const filled = fc
    .tuple(fc.constantFrom(...ROUTE_SET.map((route) => route.template)), fc.array(value, { minLength: 6 }))
    .map(([template, values]) => {
      let i = 0;
      return template.replace(/\{[^}]+\}/g, () => values[i++]!);
    });
  const random = fc.array(segment, { maxLength: 9 }).map((segments) => `/${segments.join('/')}`);
  const target = fc
    .tuple(fc.oneof(filled, random), fc.constantFrom('', '?q=1', '#f', '?a/b#c'))
    .map(([path, suffix]) => path + suffix);
  const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD');

  // INVARIANT: the fast path answers exactly as the careful path, params included.
  it('answers as the careful path on plain targets', () => {
    fc.assert(
      fc.property(method, target, (m, t) => {
        expectCarefulAnswer(tree, m, t);
      }),
      { numRuns: fcRuns * 5 },
    );
  });
});

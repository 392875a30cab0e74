import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRoutes, matchRoute } from '../../src/routes/route-tree.js';
import type { RouteInput, RouteMatch } from '../../src/routes/route-types.js';
import { fcRuns } from '../setup.js';
import { ROUTE_SET } from '../support/route-set.js';

// The unit tests' route set, plus a param and a multi-segment param at the same position, so the
// reference comparison sees param-over-multi priority too.
const ROUTES: readonly RouteInput[] = [
  ...ROUTE_SET,
  { method: 'DELETE', template: '/orgs/{org}/{security_product}/{enablement}' },
  { method: 'DELETE', template: '/orgs/{org}/{rest}', multiSegment: 'rest' },
];

const tree = compileRoutes(ROUTES);

// ---- plain reading of the templates, independent of the implementation ------------------------

type Part =
  | { kind: 'static'; text: string }
  | { kind: 'param'; name: string }
  | { kind: 'multi'; name: string };

function partsOf(route: RouteInput): Part[] {
  if (route.template === '/') return [];
  return route.template
    .slice(1)
    .split('/')
    .map((text): Part => {
      if (!text.startsWith('{')) return { kind: 'static', text };
      const name = text.slice(1, -1);
      return name === route.multiSegment ? { kind: 'multi', name } : { kind: 'param', name };
    });
}

const PARTS = ROUTES.map(partsOf);
const STATICS = new Set(PARTS.flat().flatMap((part) => (part.kind === 'static' ? [part.text] : [])));

/** Indexes of the routes of `method` whose template shape fits the raw segments, priority aside. */
function spelledBy(method: string, segments: readonly string[]): number[] {
  return PARTS.flatMap((parts, index) => {
    if (ROUTES[index]!.method !== method) return [];
    const multi = parts.at(-1)?.kind === 'multi';
    if (multi ? segments.length < parts.length : segments.length !== parts.length) return [];
    const fits = parts.every((part, i) => part.kind !== 'static' || part.text === segments[i]);
    return fits ? [index] : [];
  });
}

const RANK = { static: 0, param: 1, multi: 2 } as const;

/** Route `a` beats route `b` when, at the first position where their kinds differ, `a`'s ranks first. */
function outranks(a: number, b: number): boolean {
  const pa = PARTS[a]!;
  const pb = PARTS[b]!;
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const diff = RANK[pa[i]!.kind] - RANK[pb[i]!.kind];
    if (diff !== 0) return diff < 0;
  }
  return false;
}

function rawSegments(path: string): string[] {
  return path === '/' ? [] : path.slice(1).split('/');
}

function plain(result: RouteMatch): RouteMatch {
  return result.kind === 'matched' ? { ...result, params: { ...result.params } } : result;
}

// ---- generators of valid parameter values ------------------------------------------------------

// Characters a client may send unencoded in a segment (RFC 3986 pchar without `%`).
const UNRESERVED = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]$/;
const FORBIDDEN = /[\\\x00-\x1f\x7f]/;

const char = fc.oneof(
  fc.constantFrom(...'aZ09-._~!$&()*+,;=:@'),
  fc.constantFrom('.', '%', '?', '#', ' ', '{', '}', 'é', 'ß', '😀', '中', "'"),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);

/** A decoded value of one piece: non-empty, not a dot segment, no slash, backslash or control. */
const piece = fc
  .string({ unit: char, minLength: 1, maxLength: 8 })
  .filter((value) => value !== '.' && value !== '..' && !value.includes('/') && !FORBIDDEN.test(value));

/** Per character: unreserved ones raw, the rest percent-encoded, with lower- or uppercase hex. */
const encoding = fc.array(fc.tuple(fc.boolean(), fc.boolean()), { minLength: 1, maxLength: 12 });

function encode(value: string, flags: readonly (readonly [boolean, boolean])[]): string {
  let out = '';
  let i = 0;
  for (const ch of value) {
    const [, lower] = flags[i++ % flags.length]!;
    // Unreserved characters always go raw: percent-encoded they are a bad path (see rawBad).
    if (UNRESERVED.test(ch)) {
      out += ch;
      continue;
    }
    for (const byte of new TextEncoder().encode(ch)) {
      const hex = byte.toString(16).padStart(2, '0');
      out += `%${lower ? hex : hex.toUpperCase()}`;
    }
  }
  return out;
}

const slash = fc.constantFrom('%2F', '%2f');

interface Generated {
  readonly raw: string;
  readonly value: string;
}

/** A raw segment (or segments) for one template position, and the value matchRoute should give. */
function valueFor(route: RouteInput, part: Part): fc.Arbitrary<Generated> {
  if (part.kind === 'multi') {
    // Several segments, joined by a raw `/` or an encoded one: both mean `/` here.
    return fc
      .array(fc.tuple(piece, encoding, fc.oneof(fc.constant('/'), slash)), { minLength: 1, maxLength: 4 })
      .map((pieces) => ({
        raw: pieces.map(([p, e, sep], i) => (i === 0 ? '' : sep) + encode(p, e)).join(''),
        value: pieces.map(([p]) => p).join('/'),
      }));
  }
  if (part.kind === 'param' && route.encodedSlash?.includes(part.name)) {
    return fc.array(fc.tuple(piece, encoding, slash), { minLength: 1, maxLength: 3 }).map((pieces) => ({
      raw: pieces.map(([p, e, sep], i) => (i === 0 ? '' : sep) + encode(p, e)).join(''),
      value: pieces.map(([p]) => p).join('/'),
    }));
  }
  if (part.kind === 'param' && part.name === 'repo') {
    return fc
      .tuple(piece, encoding, fc.boolean())
      .map(([p, e, git]) => {
        const decoded = git ? `${p}.git` : p;
        return {
          raw: encode(p, e) + (git ? '.git' : ''),
          value: decoded.endsWith('.git') ? decoded.slice(0, -4) : decoded,
        };
      })
      .filter((generated) => generated.value !== '');
  }
  return fc.tuple(piece, encoding).map(([p, e]) => ({ raw: encode(p, e), value: p }));
}

/** A path spelling route `index`, with the params it should match to. */
function requestFor(index: number): fc.Arbitrary<{ path: string; params: Record<string, string> }> {
  const route = ROUTES[index]!;
  const parts = PARTS[index]!;
  const values = parts.map((part) =>
    part.kind === 'static'
      ? fc.constant({ raw: part.text, value: part.text })
      : // Values that spell a static segment of the table would (rightly) take a static branch.
        valueFor(route, part).filter((generated) =>
          generated.raw.split('/').every((raw) => !STATICS.has(raw)),
        ),
  );
  return (
    fc
      .tuple(...values)
      .map((generated) => {
        const params: Record<string, string> = {};
        generated.forEach((g, i) => {
          const part = parts[i]!;
          if (part.kind !== 'static') params[part.name] = g.value;
        });
        return { path: `/${generated.map((g) => g.raw).join('/')}`, params };
      })
      // `DELETE /orgs/{org}/{rest}` with two segments is rightly taken by the `{security_product}`
      // route: keep the paths this route wins by priority (and the reference comparison checks them all).
      .filter(({ path }) =>
        spelledBy(route.method, rawSegments(path)).every((other) => !outranks(other, index)),
      )
  );
}

// ---- a naive reference matcher: backtracking, static > param > multi --------------------------

type Verdict =
  | { kind: 'matched'; route: number; params: Record<string, string> }
  | { kind: 'bad_path' | 'no_match' };

function rawBad(segment: string): boolean {
  if (segment === '') return true;
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return true;
  }
  return (
    decoded === '.' ||
    decoded === '..' ||
    FORBIDDEN.test(decoded) ||
    /%(?![0-9A-Fa-f]{2})/.test(segment) ||
    // A percent-encoded unreserved character (RFC 3986 ALPHA, DIGIT, `-._~`).
    /%(?:4[1-9a-f]|5[0-9a]|6[1-9a-f]|7[0-9a]|3[0-9]|2[de]|5f|7e)/i.test(segment)
  );
}

function badPieces(value: string): boolean {
  return value.split('/').some((p) => p === '' || p === '.' || p === '..');
}

function reference(method: string, target: string): Verdict {
  const path = target.split(/[?#]/)[0]!;
  if (!path.startsWith('/')) return { kind: 'bad_path' };
  const segments = rawSegments(path);
  if (segments.some(rawBad)) return { kind: 'bad_path' };
  const candidates = PARTS.map((parts, index) => ({ parts, index })).filter(
    (c) => ROUTES[c.index]!.method === method,
  );
  type Candidate = (typeof candidates)[number];
  // Try static, then param, then multi at each position; on failure, back up and try the next.
  const walk = (pos: number, live: Candidate[]): Candidate | undefined => {
    if (pos === segments.length) return live.find((c) => c.parts.length === pos);
    const statics = live.filter((c) => {
      const part = c.parts[pos];
      return part?.kind === 'static' && part.text === segments[pos];
    });
    const viaStatic = statics.length > 0 ? walk(pos + 1, statics) : undefined;
    if (viaStatic !== undefined) return viaStatic;
    const params = live.filter((c) => c.parts[pos]?.kind === 'param');
    const viaParam = params.length > 0 ? walk(pos + 1, params) : undefined;
    if (viaParam !== undefined) return viaParam;
    return live.find((c) => c.parts[pos]?.kind === 'multi');
  };
  const winner = walk(0, candidates);
  if (winner === undefined) return { kind: 'no_match' };
  const decoded = segments.map((segment) => decodeURIComponent(segment));
  const params: Record<string, string> = {};
  for (const [i, part] of winner.parts.entries()) {
    if (part.kind === 'static') continue;
    if (part.kind === 'multi') {
      const value = decoded.slice(i).join('/');
      if (badPieces(value)) return { kind: 'bad_path' };
      params[part.name] = value;
      continue;
    }
    let value = decoded[i]!;
    if (value.includes('/')) {
      if (!ROUTES[winner.index]!.encodedSlash?.includes(part.name) || badPieces(value))
        return { kind: 'bad_path' };
    }
    if (part.name === 'repo' && value.endsWith('.git')) value = value.slice(0, -4);
    if (value === '') return { kind: 'bad_path' };
    params[part.name] = value;
  }
  return { kind: 'matched', route: winner.index, params };
}

/** The result without its message, for comparing with the reference. */
function verdictOf(result: RouteMatch): Verdict {
  if (result.kind === 'matched')
    return { kind: 'matched', route: result.route, params: { ...result.params } };
  return { kind: result.kind };
}

// ---- arbitrary request targets ---------------------------------------------------------------

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

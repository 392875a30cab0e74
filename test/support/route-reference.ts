// The route-tree property tests' route set and a naive reference reading of it, independent of
// the implementation: the templates split plainly, and a backtracking matcher (static > param > multi).
import type { RouteInput, RouteMatch } from '../../src/routes/route-types.js';
import { ROUTE_SET } from './route-set.js';

// The unit tests' route set, plus a param and a multi-segment param at the same position, so the
// reference comparison sees param-over-multi priority too.
export const ROUTES: readonly RouteInput[] = [
  ...ROUTE_SET,
  { method: 'DELETE', template: '/orgs/{org}/{security_product}/{enablement}' },
  { method: 'DELETE', template: '/orgs/{org}/{rest}', multiSegment: 'rest' },
];

// ---- plain reading of the templates, independent of the implementation ------------------------

export type Part =
  | { kind: 'static'; text: string }
  | { kind: 'param'; name: string }
  | { kind: 'multi'; name: string };

export function partsOf(route: RouteInput): Part[] {
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

export const PARTS = ROUTES.map(partsOf);
export const STATICS = new Set(PARTS.flat().flatMap((part) => (part.kind === 'static' ? [part.text] : [])));

/** Indexes of the routes of `method` whose template shape fits the raw segments, priority aside. */
export function spelledBy(method: string, segments: readonly string[]): number[] {
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
export function outranks(a: number, b: number): boolean {
  const pa = PARTS[a]!;
  const pb = PARTS[b]!;
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const diff = RANK[pa[i]!.kind] - RANK[pb[i]!.kind];
    if (diff !== 0) return diff < 0;
  }
  return false;
}

export function rawSegments(path: string): string[] {
  return path === '/' ? [] : path.slice(1).split('/');
}

export function plain(result: RouteMatch): RouteMatch {
  return result.kind === 'matched' ? { ...result, params: { ...result.params } } : result;
}

/** Characters no segment may carry, decoded: backslash and controls. */
export const FORBIDDEN = /[\\\x00-\x1f\x7f]/;

// ---- a naive reference matcher: backtracking, static > param > multi --------------------------

export type Verdict =
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

export function reference(method: string, target: string): Verdict {
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
export function verdictOf(result: RouteMatch): Verdict {
  if (result.kind === 'matched')
    return { kind: 'matched', route: result.route, params: { ...result.params } };
  return { kind: result.kind };
}

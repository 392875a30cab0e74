// Generators of request targets that spell a route of the reference set, with the params the
// matcher should give: values percent-encoded per character, in either case of hex.
import fc from 'fast-check';
import type { RouteInput } from '../../src/routes/route-types.js';
import {
  FORBIDDEN,
  outranks,
  PARTS,
  type Part,
  ROUTES,
  rawSegments,
  STATICS,
  spelledBy,
} from './route-reference.js';

// ---- generators of valid parameter values ------------------------------------------------------

// Characters a client may send unencoded in a segment (RFC 3986 pchar without `%`).
const UNRESERVED = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]$/;

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
export function requestFor(index: number): fc.Arbitrary<{ path: string; params: Record<string, string> }> {
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

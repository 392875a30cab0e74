/** Splits a raw request target into checked path segments, raw and percent-decoded (DESIGN.md section 2). */
// Runs for the targets scanPath leaves to it (`%`, unusual characters, bad segments): keep it linear.
import { showText } from '../core/show-text.js';

/** The segments of a path that passed every raw check, or why it did not. */
export type SplitPath =
  | {
      readonly kind: 'segments';
      /** Segments as sent, still percent-encoded; what static segments are compared with. */
      readonly raw: readonly string[];
      /** Percent-decoded segments; the very same array as `raw` when the path has no `%`. */
      readonly decoded: readonly string[];
    }
  | { readonly kind: 'bad_path'; readonly message: string };

// `%` not followed by two hex digits: `%zz`, a truncated `%4`.
const MALFORMED = /%(?![0-9A-Fa-f]{2})/;
// What no segment may hold, raw or decoded: a backslash (servers that treat it as `/` would see a
// different path), C0 controls and DEL, lone UTF-16 surrogates (not encodable as UTF-8), and the
// two characters a case-insensitive router reads as an ASCII letter (ASCII_LOOKALIKE).
const FORBIDDEN =
  /[\\\x00-\x1f\x7f\u017f\u212a]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// The only characters outside ASCII that a router's case folding turns into an ASCII letter:
// U+212A KELVIN SIGN lower-cases to `k` (find-my-way, so Fastify with `caseSensitive: false`,
// decodes, then lower-cases the path), and U+017F LONG S matches `s` in a regular expression with
// the `iu` flags (as does the Kelvin sign `k`). Such a router reads `/repos/o/r/%E2%84%AAeys` as
// `keys`, one that does not (Express) as a parameter or no route: the engine refuses to guess,
// as for a percent-encoded letter. (Checked over every code point against `toLowerCase` and
// `/x/i` and `/x/iu` for each ASCII letter.)
const ASCII_LOOKALIKE = /[\u017f\u212a]/;
// A percent-encoded unreserved character (RFC 3986: letters, digits, `-._~`). Routers that decode
// before matching read `%61ctions` as the static `actions`; routers that do not read a parameter.
// The engine cannot know which the server behind it does, so it refuses to guess.
const ENCODED_UNRESERVED = /%(?:[46][1-9A-Fa-f]|[57][0-9Aa]|3[0-9]|2[DdEe]|5[Ff]|7[Ee])/;
// A plain character class: cheap enough to scan every path once; a hit means a closer look.
const SUSPECT = /[\\\x00-\x1f\x7f\u017f\u212a\ud800-\udfff]/;
/** A segment fit for a one-line message (see showText). */
export const showSegment = showText;

function bad(message: string): SplitPath {
  return { kind: 'bad_path', message };
}

function checkDecoded(raw: string, value: string): SplitPath | null {
  if (value === '.' || value === '..') return bad(`path segment \`${showSegment(raw)}\` is a dot segment`);
  if (!FORBIDDEN.test(value)) return null;
  if (value.includes('\\')) return bad(`path segment \`${showSegment(raw)}\` contains a backslash`);
  if (/[\x00-\x1f\x7f]/.test(value)) {
    return bad(`path segment \`${showSegment(raw)}\` contains a control character`);
  }
  const lookalike = ASCII_LOOKALIKE.exec(value);
  if (lookalike !== null) {
    const [name, letter] = lookalike[0] === '\u212a' ? ['U+212A KELVIN SIGN', 'k'] : ['U+017F LONG S', 's'];
    return bad(
      `path segment \`${showSegment(raw)}\` contains ${name}, which case-insensitive routers read as the letter \`${letter}\`; send the letter`,
    );
  }
  return bad(`path segment \`${showSegment(raw)}\` contains a lone surrogate, which is not valid unicode`);
}

/**
 * Strips the query string and fragment from a raw request target, splits the path on `/`, and
 * rejects what the server behind might read differently: dot segments (also `%2e%2E`), empty
 * segments (`//`, a trailing `/`), backslashes and control characters (raw or encoded), malformed
 * percent-encoding, invalid UTF-8 and percent-encoded unreserved characters (`%61`, `%2D`): a
 * router that decodes before matching would route them differently. An encoded slash `%2F` passes here; whether it is allowed
 * depends on the parameter the segment lands in, known only after matching.
 * @example
 * import { splitPath } from './split-path.js';
 * splitPath('/repos/o/r/contents/a%20b?ref=main');
 * // { kind: 'segments', raw: ['repos', 'o', 'r', 'contents', 'a%20b'], decoded: ['repos', 'o', 'r', 'contents', 'a b'] }
 * splitPath('/repos/o/r/%2e%2E'); // { kind: 'bad_path', message: 'path segment `%2e%2E` is a dot segment' }
 */
export function splitPath(target: string): SplitPath {
  let end = target.indexOf('?');
  const hash = target.indexOf('#');
  if (end === -1 || (hash !== -1 && hash < end)) end = hash;
  const path = end === -1 ? target : target.slice(0, end);
  if (path.charCodeAt(0) !== 47 /* '/' */) {
    return bad(`request target \`${showSegment(path)}\` does not start with \`/\``);
  }
  if (path.length === 1) return { kind: 'segments', raw: [], decoded: [] };
  const raw = path.slice(1).split('/');
  // One scan of the whole path for raw trouble, so clean segments cost a comparison or two each.
  const suspect = SUSPECT.test(path);
  let decoded = raw;
  for (let i = 0; i < raw.length; i++) {
    const segment = raw[i]!;
    if (segment === '') {
      return bad(`empty path segment after \`/${showSegment(raw.slice(0, i).join('/'))}\``);
    }
    if (!segment.includes('%')) {
      if (suspect || segment === '.' || segment === '..') {
        const problem = checkDecoded(segment, segment);
        if (problem !== null) return problem;
      }
      continue;
    }
    if (MALFORMED.test(segment)) {
      return bad(`path segment \`${showSegment(segment)}\` has malformed percent-encoding`);
    }
    let value: string;
    try {
      value = decodeURIComponent(segment);
    } catch {
      return bad(`path segment \`${showSegment(segment)}\` is not valid UTF-8 once decoded`);
    }
    if (decoded === raw) decoded = raw.slice();
    decoded[i] = value;
    const problem = checkDecoded(segment, value);
    if (problem !== null) return problem;
    const unreserved = ENCODED_UNRESERVED.exec(segment);
    if (unreserved !== null) {
      return bad(
        `path segment \`${showSegment(segment)}\` percent-encodes the unreserved character \`${unreserved[0]}\`; send it unencoded`,
      );
    }
  }
  return { kind: 'segments', raw, decoded };
}

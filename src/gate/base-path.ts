/** Where the API lives under a server's URL space: a base path, cut from each request target before matching. */
// Hot path when a base path is set: strip runs on every request; the bench guards it.
import { TollgateError } from '../core/errors.js';
import { showText } from '../core/show-text.js';
import type { Decision } from '../policy/types.js';

/** A checked base path: what is under it, with the base cut off, and what is outside it. */
export interface BasePath {
  /** The base path as given, normalized (`''` for none, else `/seg/...` without a trailing `/`). */
  readonly path: string;
  /** `target` without the base path (`/` when nothing is left), or null when it is outside the base path. */
  strip(target: string): string | null;
}

// What a base path segment may hold: letters, digits and the unreserved marks, nothing to decode.
const PLAIN_SEGMENT = /^[A-Za-z0-9._~!$&'()*+,;=:@-]+$/;
// ASCII letters to lower case, and the two characters a router's case folding reads as one (see
// split-path.ts: U+212A KELVIN SIGN as `k`, U+017F LONG S as `s`), so no spelling of the base path
// that such a router routes under it is taken for a path outside it.
const foldCase = (text: string) =>
  text.replace(/[A-Z\u017f\u212a]/g, (c) => (c === '\u212a' ? 'k' : c === '\u017f' ? 's' : c.toLowerCase()));

/**
 * Checks a base path (`/api`, `/api/v3`; `''` or `/` for none) and returns its stripper. A target
 * is under the base path when its first segments name the base path's segments under any
 * spelling some supported router reads as them: in other ASCII letter case (Express mounts and
 * case-insensitive routes), percent-encoded (Hono and Fastify decode before routing), after
 * repeated slashes (Fastify's `ignoreDuplicateSlashes`). So no spelling of the base path
 * reaches the API's handlers as a path outside it. The exact spelling costs one `startsWith`.
 * Throws TollgateError `TOLLGATE_INVALID_OPTION` for anything else.
 * @example
 * import { createBasePath } from './base-path.js';
 * const base = createBasePath('/api');
 * base.strip('/api/repos/o/r?x=1'); // '/repos/o/r?x=1'
 * base.strip('//API/repos/o/r');    // '/repos/o/r'
 * base.strip('/api');               // '/'
 * base.strip('/apis/repos/o/r');    // null
 */
export function createBasePath(given: unknown, option = 'basePath'): BasePath {
  const fail = (why: string): never => {
    throw new TollgateError(
      'TOLLGATE_INVALID_OPTION',
      `gate: \`${option}\` \`${showText(String(given))}\` ${why}; give a path such as \`/api\` or \`/api/v3\`, or \`''\` for none`,
    );
  };
  if (typeof given !== 'string') return fail('is not a string');
  if (given !== '' && given.charCodeAt(0) !== 47) fail('does not start with `/`');
  const path = given.endsWith('/') ? given.slice(0, -1) : given;
  const segments = path === '' ? [] : path.slice(1).split('/');
  for (const segment of segments) {
    if (!PLAIN_SEGMENT.test(segment) || segment === '.' || segment === '..')
      fail(`has the segment \`${showText(segment)}\`, which is empty, a dot segment or needs encoding`);
  }
  if (segments.length === 0) return { path: '', strip: (target) => target };
  const folded = segments.map(foldCase);

  // Any spelling: walk the base segments over the target, skipping runs of slashes.
  function stripCarefully(target: string): string | null {
    let at = 0;
    for (const expected of folded) {
      if (target.charCodeAt(at) !== 47) return null;
      while (target.charCodeAt(at) === 47) at++;
      let end = at;
      while (end < target.length && !'/?#'.includes(target[end]!)) end++;
      let segment = target.slice(at, end);
      if (segment.includes('%')) {
        try {
          segment = decodeURIComponent(segment);
        } catch {
          return null;
        }
      }
      if (foldCase(segment) !== expected) return null;
      at = end;
    }
    return rest(target, at);
  }

  return {
    path,
    strip(target) {
      if (target.startsWith(path)) {
        const next = target.charCodeAt(path.length);
        // Past the base path: its end, `/`, `?` or `#`; `/apis` is not under `/api`.
        if (Number.isNaN(next) || next === 47 || next === 63 || next === 35) return rest(target, path.length);
      }
      return stripCarefully(target);
    },
  };
}

// What follows the base path, as a target of its own: `/` when only a query or nothing is left.
function rest(target: string, at: number): string | null {
  if (at === target.length) return '/';
  const next = target.charCodeAt(at);
  if (next === 47) return target.slice(at);
  if (next === 63 || next === 35) return `/${target.slice(at)}`;
  return null;
}

/**
 * The decision for a request outside the base path: not an API path, so it is what an unknown
 * endpoint is under the policy's `unknownEndpoint` (404 when `deny`, passed on when `pass-through`).
 * @example
 * import { createBasePath, outsideDecision } from './base-path.js';
 * outsideDecision(createBasePath('/api'), 'GET', '/healthz', 'pass-through').reason; // 'pass_through'
 */
export function outsideDecision(
  base: BasePath,
  method: string,
  target: string,
  unknownEndpoint: 'deny' | 'pass-through',
): Decision {
  const pass = unknownEndpoint === 'pass-through';
  const path = target.split(/[?#]/, 1)[0]!;
  return {
    allowed: pass,
    status: pass ? 200 : 404,
    reason: pass ? 'pass_through' : 'unknown_endpoint',
    message: `\`${showText(method)} ${showText(path)}\` is outside basePath \`${base.path}\`${pass ? '; passed through by configuration' : ''}`,
    endpoint: null,
    params: Object.freeze(Object.create(null)),
    requirement: { fineGrained: null, classic: null },
    missing: [],
    addition: { kind: 'none' },
    certain: false,
    headers: {},
  };
}

/** The matcher's careful path: targets the fast path leaves alone (`%`, unusual characters, odd spellings). */
import { type Automaton, routeFor } from './build-automaton.js';
import { collapseSlashes } from './collapse-slashes.js';
import { findEdgeFolded } from './edge-index.js';
import { extractParams } from './extract-params.js';
import type { TemplateSegment } from './parse-template.js';
import type { RouteMatch } from './route-types.js';
import { showSegment, splitPath } from './split-path.js';

/** What the careful path needs of a compiled tree. */
export interface CarefulTree {
  readonly automaton: Automaton;
  readonly templates: readonly (readonly TemplateSegment[])[];
}

const NO_MATCH: RouteMatch = Object.freeze({ kind: 'no_match' });

/**
 * Matches every spelling that some supported router reads as a table route as that route, so a
 * request can never reach a handler as "unknown" under another spelling (issue 18, item 1):
 * - repeated slashes and a trailing slash are read as one slash and none (collapseSlashes);
 * - a segment naming a static segment in another ASCII letter case (`ACTIONS`) is read as that
 *   static segment (as case-insensitive routers do, static segments first); when the path read
 *   case-sensitively (that segment a parameter) is another route, the two kinds of router
 *   disagree, so the path is refused (`bad_path`) rather than decided as either;
 * - likewise a path with empty segments is refused when reading them as empty parameters (as
 *   find-my-way does by default) gives another route than dropping them.
 * At most four walks of the automaton: linear in the path's length.
 * - everything else as before: splitPath's raw checks and percent-decoding (every other bad_path
 *   rule and message lives there), then extractParams with the template's rules on encoded
 *   slashes and `.git`.
 * matchRoute calls it for any target scanPath refuses, for a segment in another letter case, and
 * for a `repo` of exactly `.git`.
 * @example
 * import { compileRoutes } from 'tollgate/routes';
 * import { type CarefulTree, matchCarefully } from './match-carefully.js';
 * // A compiled RouteTree carries what the careful path needs; matchRoute passes it on the same way.
 * const tree = compileRoutes([{ method: 'GET', template: '/users/{username}' }]) as unknown as CarefulTree;
 * matchCarefully(tree, 'GET', '/users/Oct%C3%B6'); // { kind: 'matched', route: 0, params: { username: 'Octö' } }
 * matchCarefully(tree, 'GET', '//USERS/octo/');   // { kind: 'matched', route: 0, params: { username: 'octo' } }
 * matchCarefully(tree, 'GET', '/users/..');        // { kind: 'bad_path', message: 'path segment `..` is a dot segment' }
 */
export function matchCarefully(tree: CarefulTree, method: string, target: string): RouteMatch {
  const collapsed = collapseSlashes(target);
  const split = splitPath(collapsed);
  if (split.kind === 'bad_path') return split;
  const { raw, decoded } = split;
  const folded = walk(tree, raw, method, true);
  const route = folded.route;
  if (collapsed !== target) {
    // find-my-way (Fastify without ignoreTrailingSlash / ignoreDuplicateSlashes) reads an empty
    // segment as an empty parameter: `/issues/events/` runs `/issues/events/{event_id}`. When
    // that reading is a route and not the one read without the empty segment, refuse.
    const kept = emptyKept(target);
    for (const fold of [true, false]) {
      const other = walk(tree, kept, method, fold).route;
      if (other >= 0 && other !== route) {
        return {
          kind: 'bad_path',
          message: `path \`/${showSegment(kept.join('/'))}\` has an empty segment, which routers that drop it and routers that read it as an empty parameter route to different endpoints; send it without`,
        };
      }
    }
  }
  if (folded.foldedAt >= 0) {
    // A case-sensitive router reads the folded segment as a parameter: when that, too, is a route
    // and another one, the two kinds of router disagree, and the engine will not pick one.
    const exact = walk(tree, raw, method, false).route;
    if (exact >= 0 && exact !== route) {
      return {
        kind: 'bad_path',
        message: `path segment \`${showSegment(raw[folded.foldedAt]!)}\` names a listed path segment in other letter case where a parameter may also stand: routers that ignore letter case and routers that do not would route it differently; spell it as the table does`,
      };
    }
  }
  if (route < 0) return NO_MATCH;
  const extracted = extractParams(tree.templates[route]!, raw, decoded);
  if (extracted.kind === 'bad_path') return extracted;
  return { kind: 'matched', route, params: extracted.params };
}

// The raw segments of a target's path, empty ones kept (`/a//b/` is `a`, ``, `b`, ``).
function emptyKept(target: string): string[] {
  let end = target.indexOf('?');
  const hash = target.indexOf('#');
  if (end === -1 || (hash !== -1 && hash < end)) end = hash;
  return (end === -1 ? target : target.slice(0, end)).slice(1).split('/');
}

// One automaton step per segment: a static segment as sent, else (with `fold`) in other letter
// case, else a parameter. Returns the route for `method` (-1: none) and the first folded segment.
function walk(
  tree: CarefulTree,
  raw: readonly string[],
  method: string,
  fold: boolean,
): { route: number; foldedAt: number } {
  let state = tree.automaton.start;
  let foldedAt = -1;
  for (let i = 0; i < raw.length; i++) {
    const segment = raw[i]!;
    let next = state.next.get(segment);
    if (next === undefined && fold) {
      next = findEdgeFolded(state.edges, segment, 0, segment.length);
      if (next !== undefined && foldedAt < 0) foldedAt = i;
    }
    const to = next ?? state.other;
    if (to === null) return { route: -1, foldedAt };
    state = to;
  }
  return { route: routeFor(state, method), foldedAt };
}

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
 *   disagree, so the path is refused (`bad_path`) rather than decided as either. Two walks at
 *   most: linear in the path's length;
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
  const split = splitPath(collapseSlashes(target));
  if (split.kind === 'bad_path') return split;
  const { raw, decoded } = split;
  const folded = walk(tree, raw, method, true);
  const route = folded.route;
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

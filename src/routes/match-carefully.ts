/** The matcher's careful path: targets the fast path leaves alone (`%`, unusual characters, bad segments). */
import { type Automaton, routeFor } from './build-automaton.js';
import { extractParams } from './extract-params.js';
import type { TemplateSegment } from './parse-template.js';
import type { RouteMatch } from './route-types.js';
import { splitPath } from './split-path.js';

/** What the careful path needs of a compiled tree. */
export interface CarefulTree {
  readonly automaton: Automaton;
  readonly templates: readonly (readonly TemplateSegment[])[];
}

const NO_MATCH: RouteMatch = Object.freeze({ kind: 'no_match' });

/**
 * Matches as the engine always has: splitPath's raw checks and percent-decoding (every bad_path
 * rule and message lives there), one Map lookup per raw segment, then extractParams with the
 * template's rules on encoded slashes and `.git`. matchRoute calls it for any target scanPath
 * refuses, and for a `repo` of exactly `.git`.
 * @example
 * import { compileRoutes } from 'tollgate/routes';
 * import { type CarefulTree, matchCarefully } from './match-carefully.js';
 * // A compiled RouteTree carries what the careful path needs; matchRoute passes it on the same way.
 * const tree = compileRoutes([{ method: 'GET', template: '/users/{username}' }]) as unknown as CarefulTree;
 * matchCarefully(tree, 'GET', '/users/Oct%C3%B6'); // { kind: 'matched', route: 0, params: { username: 'Octö' } }
 * matchCarefully(tree, 'GET', '/users/..');        // { kind: 'bad_path', message: 'path segment `..` is a dot segment' }
 */
export function matchCarefully(tree: CarefulTree, method: string, target: string): RouteMatch {
  const split = splitPath(target);
  if (split.kind === 'bad_path') return split;
  const { raw, decoded } = split;
  let state = tree.automaton.start;
  for (let i = 0; i < raw.length; i++) {
    const next = state.next.get(raw[i]!) ?? state.other;
    if (next === null) return NO_MATCH;
    state = next;
  }
  const route = routeFor(state, method);
  if (route < 0) return NO_MATCH;
  const extracted = extractParams(tree.templates[route]!, raw, decoded);
  if (extracted.kind === 'bad_path') return extracted;
  return { kind: 'matched', route, params: extracted.params };
}

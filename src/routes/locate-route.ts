/** The matcher's core without an answer object: a route index out, its parameters (or why the path is bad) left in a scratch. */
// Hot path: the policy locates every request here; the bench guards it.
import type { Automaton } from './build-automaton.js';
import { FOLDED_SLOT, NO_SLOT, probeAhead, probeSlots } from './edge-table.js';
import {
  type FlatAutomaton,
  INFO_BASE,
  INFO_LEAVES,
  INFO_MASK,
  INFO_OTHER,
  INFO_WIDTH,
  LEAF_WIDTH,
} from './flat-automaton.js';
import { matchCarefully } from './match-carefully.js';
import { type ParamPlan, readParamsAt } from './param-plan.js';
import type { TemplateSegment } from './parse-template.js';
import type { RouteTree } from './route-types.js';
import { growBounds, isDot, scratch } from './scan-path.js';

/** What tryCompileRoutes builds behind the RouteTree it hands out. */
export interface CompiledTree extends RouteTree {
  readonly automaton: Automaton;
  readonly flat: FlatAutomaton;
  readonly templates: readonly (readonly TemplateSegment[])[];
  readonly plans: readonly ParamPlan[];
}

/** locateRoute's answer for a path that lands on no route. */
export const NO_ROUTE = -1;
/** locateRoute's answer for a path the engine refuses to interpret; `located.message` says why. */
export const BAD_PATH = -2;

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze(Object.create(null));

/**
 * What the last locateRoute call found besides its answer: the route's decoded parameters, or the
 * bad path's message. Matching is synchronous and runs no caller code, so one module-level record
 * serves every call: read it right after locateRoute.
 * @example
 * import { compileRoutes } from 'tollgate/routes';
 * import { located, locateRoute } from './locate-route.js';
 * const tree = compileRoutes([{ method: 'GET', template: '/users/{username}' }]);
 * locateRoute(tree, 'GET', '/users/octo'); // 0
 * located.params; // { username: 'octo' }
 */
export const located: { params: Readonly<Record<string, string>>; message: string } = {
  params: NO_PARAMS,
  message: '',
};

function carefully(compiled: CompiledTree, method: string, target: string): number {
  const found = matchCarefully(compiled, method, target);
  if (found.kind === 'matched') {
    located.params = found.params;
    return found.route;
  }
  if (found.kind === 'bad_path') {
    located.message = found.message;
    return BAD_PATH;
  }
  return NO_ROUTE;
}

// Per ASCII code, what the walk does with it: most characters need one table read and one compare.
const ORDINARY = 0;
const SLASH = 1;
// `?` or `#`: the path ends (the query string and fragment are not matched).
const END = 2;
// `%` (splitPath decodes), a backslash, control characters, DEL: splitPath checks them.
const CAREFUL = 3;
const CHAR_CLASS = new Uint8Array(128);
for (let c = 0; c < 32; c++) CHAR_CLASS[c] = CAREFUL;
CHAR_CLASS[127] = CAREFUL;
CHAR_CLASS[37] = CAREFUL;
CHAR_CLASS[92] = CAREFUL;
CHAR_CLASS[47] = SLASH;
CHAR_CLASS[63] = END;
CHAR_CLASS[35] = END;

/**
 * matchRoute's answers without allocating one: the route's index (parameters in
 * `located.params`), NO_ROUTE, or BAD_PATH (the message in `located.message`). A plain path (one
 * scanPath accepts) is walked in place in one pass: at each segment's start its state's statics
 * are looked up (probeAhead), so a static segment's characters are read once, by the comparison;
 * any other segment is read to its end, then probed (parameters, other letter case). Any other
 * path takes the careful path (matchCarefully) with the same answers.
 * @example
 * import { compileRoutes } from 'tollgate/routes';
 * import { BAD_PATH, located, locateRoute } from './locate-route.js';
 * const tree = compileRoutes([{ method: 'GET', template: '/users/{username}' }]);
 * locateRoute(tree, 'GET', '/users/..') === BAD_PATH; // true
 * located.message; // 'path segment `..` is a dot segment'
 */
export function locateRoute(tree: RouteTree, method: string, target: string): number {
  const compiled = tree as CompiledTree;
  // Profiled over the bench mix, scanning the whole path first (scanPath) and then walking its
  // segments was 18% of authorize in the scan alone: one pass reads each character once, and
  // probes a segment while its characters are still at hand.
  if (target.charCodeAt(0) !== 47 /* '/' */) return carefully(compiled, method, target);
  const { cells, info } = compiled.flat;
  const length = target.length;
  let bounds = scratch.bounds;
  let count = 0;
  let from = 1;
  let state = 0;
  let i = 1;
  for (;;) {
    // A segment starts at `from`. A static of the state is looked up before the segment is read:
    // found, its characters are read once, by the comparison (statics are plain text).
    let base = 0;
    let found = NO_SLOT;
    if (state >= 0) {
      base = info[state * INFO_WIDTH + INFO_BASE]!;
      if (base !== 0 && from < length)
        found = probeAhead(cells, base, info[state * INFO_WIDTH + INFO_MASK]!, target, from);
    }
    let kind = END;
    if (found >= 0) {
      i = from + (cells[found] as string).length;
      if (i < length) kind = CHAR_CLASS[target.charCodeAt(i)]!;
    } else {
      for (i = from; i < length; i++) {
        const c = target.charCodeAt(i);
        kind = c < 128 ? CHAR_CLASS[c]! : CAREFUL;
        if (kind === ORDINARY) continue;
        if (kind === CAREFUL) return carefully(compiled, method, target);
        break;
      }
      if (i === length) kind = END;
      // A segment ends at i: a slash, or the path's end.
      if (i === from) {
        if (kind === END && i === 1) break; // `/` alone (or `/?query`): no segment
        return carefully(compiled, method, target); // an empty segment
      }
      if (isDot(target, from, i)) return carefully(compiled, method, target);
    }
    if (count + 2 >= bounds.length) bounds = growBounds();
    bounds[count++] = from;
    // A state lost stays lost; the rest of the path is still read, for the careful path's sake.
    if (found >= 0) state = cells[found + 1] as number;
    else if (state >= 0) {
      const at = state * INFO_WIDTH;
      const slot = base === 0 ? NO_SLOT : probeSlots(cells, base, info[at + INFO_MASK]!, target, from, i);
      if (slot >= 0) state = cells[slot + 1] as number;
      // A listed segment in other letter case: the careful path decides (or refuses) it.
      else if (slot === FOLDED_SLOT) return carefully(compiled, method, target);
      else state = info[at + INFO_OTHER]!;
    }
    from = i + 1;
    if (kind === END) break;
  }
  if (state < 0) return NO_ROUTE;
  bounds[count] = i + 1;
  // The state's leaves: the route its first node gives the method (exact, case-sensitive).
  let leaf = info[state * INFO_WIDTH + INFO_LEAVES]!;
  for (;;) {
    const leafMethod = cells[leaf];
    if (leafMethod === null) return NO_ROUTE;
    if (leafMethod === method) break;
    leaf += LEAF_WIDTH;
  }
  const params = readParamsAt(
    cells,
    cells[leaf + 2] as number,
    cells[leaf + 3] as number,
    target,
    bounds,
    count,
  );
  if (params === null) return carefully(compiled, method, target);
  located.params = params;
  return cells[leaf + 1] as number;
}

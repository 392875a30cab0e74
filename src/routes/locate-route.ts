/** The matcher's core without an answer object: a route index out, its parameters (or why the path is bad) left in a scratch. */
// Hot path: the policy locates every request here; the bench guards it.
import type { Automaton } from './build-automaton.js';
import { FOLDED_SLOT, probeSlots } from './edge-table.js';
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
import { scanPath, scratch } from './scan-path.js';

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

/**
 * matchRoute's answers without allocating one: the route's index (parameters in
 * `located.params`), NO_ROUTE, or BAD_PATH (the message in `located.message`). A plain path (see
 * scanPath) is walked in place by segment offsets, one probe of the state's edge table per
 * segment; any other takes the careful path (matchCarefully) with the same answers.
 * @example
 * import { compileRoutes } from 'tollgate/routes';
 * import { BAD_PATH, located, locateRoute } from './locate-route.js';
 * const tree = compileRoutes([{ method: 'GET', template: '/users/{username}' }]);
 * locateRoute(tree, 'GET', '/users/..') === BAD_PATH; // true
 * located.message; // 'path segment `..` is a dot segment'
 */
export function locateRoute(tree: RouteTree, method: string, target: string): number {
  const compiled = tree as CompiledTree;
  const count = scanPath(target);
  if (count < 0) return carefully(compiled, method, target);
  const bounds = scratch.bounds;
  const { cells, info } = compiled.flat;
  let state = 0;
  for (let i = 0; i < count; i++) {
    const at = state * INFO_WIDTH;
    const slot = probeSlots(
      cells,
      info[at + INFO_BASE]!,
      info[at + INFO_MASK]!,
      target,
      bounds[i]!,
      bounds[i + 1]! - 1,
    );
    if (slot >= 0) {
      state = cells[slot + 1] as number;
      continue;
    }
    // A listed segment in other letter case: the careful path decides (or refuses) it.
    if (slot === FOLDED_SLOT) return carefully(compiled, method, target);
    state = info[at + INFO_OTHER]!;
    if (state < 0) return NO_ROUTE;
  }
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

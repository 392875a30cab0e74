/** The route matcher: compiles endpoint templates once, then matches raw request targets to them. */
// Hot path: matchRoute runs on every request; the bench guards it.
import type { Automaton } from './build-automaton.js';
import { buildAutomaton, routeFor } from './build-automaton.js';
import { findEdge } from './edge-index.js';
import { matchCarefully } from './match-carefully.js';
import { type ParamPlan, planParams, readParams } from './param-plan.js';
import { parseTemplate, type TemplateSegment } from './parse-template.js';
import { createRouteTrie, insertRoute } from './route-trie.js';
import { scanPath, scratch } from './scan-path.js';
import type { HttpMethod } from './types.js';

/**
 * One endpoint to match: its method and template, and which parameters may hold a `/`.
 * @example
 * import { compileRoutes, matchRoute } from 'tollgate';
 * const tree = compileRoutes([{ method: 'GET', template: '/repos/{owner}/{repo}/contents/{path}', multiSegment: 'path' }]);
 */
export interface RouteInput {
  readonly method: HttpMethod;
  /** e.g. `/repos/{owner}/{repo}/contents/{path}` */
  readonly template: string;
  /** Name of the template's LAST parameter when it may span several segments (`path`, `dir`, `ref`). */
  readonly multiSegment?: string;
  /** Parameters whose value may contain an encoded slash %2F (e.g. `environment_name`). */
  readonly encodedSlash?: readonly string[];
}

/**
 * What a request target matched: a route (its index in the compileRoutes input) with decoded
 * parameters, a path the engine refuses to interpret (`bad_path`), or nothing.
 * @example
 * import { compileRoutes, matchRoute } from 'tollgate';
 * const tree = compileRoutes([{ method: 'PATCH', template: '/orgs/{org}' }]);
 * matchRoute(tree, 'PATCH', '/orgs/Octo'); // { kind: 'matched', route: 0, params: { org: 'Octo' } }
 * matchRoute(tree, 'PATCH', '/orgs/..');   // { kind: 'bad_path', message: 'path segment `..` is a dot segment' }
 * matchRoute(tree, 'GET', '/orgs/Octo');   // { kind: 'no_match' }
 */
export type RouteMatch =
  | { readonly kind: 'matched'; readonly route: number; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: 'bad_path'; readonly message: string }
  | { readonly kind: 'no_match' };

/**
 * The compiled form of a route list; pass it to matchRoute. `stateCount` (automaton states) is for
 * diagnostics and the bench.
 * @example
 * import { compileRoutes, matchRoute } from 'tollgate';
 * const tree = compileRoutes([{ method: 'GET', template: '/user/repos' }]);
 * tree.stateCount; // 3
 */
export interface RouteTree {
  readonly stateCount: number;
}

interface CompiledTree extends RouteTree {
  readonly automaton: Automaton;
  readonly templates: readonly (readonly TemplateSegment[])[];
  readonly plans: readonly ParamPlan[];
}

const NO_MATCH: RouteMatch = Object.freeze({ kind: 'no_match' });

/**
 * Compiles routes into a deterministic automaton: all the work of priority (static beats
 * `{param}` beats a multi-segment parameter, at the earliest position where routes differ) is
 * done here, once. Throws TollgateError `TOLLGATE_INVALID_TABLE` on a malformed template or when
 * two routes of one method have the same template (parameter names aside).
 * @example
 * import { compileRoutes, matchRoute } from 'tollgate';
 * const tree = compileRoutes([
 *   { method: 'POST', template: '/orgs/{org}/actions/hosted-runners' },
 *   { method: 'POST', template: '/orgs/{org}/{security_product}/{enablement}' },
 * ]);
 * matchRoute(tree, 'POST', '/orgs/x/actions/hosted-runners').kind; // 'matched', route 0
 */
export function compileRoutes(routes: readonly RouteInput[]): RouteTree {
  const trie = createRouteTrie();
  const templates = routes.map((route, index) => {
    const segments = parseTemplate(route.template, route.multiSegment, route.encodedSlash);
    insertRoute(trie, index, route.method, route.template, segments);
    return segments;
  });
  const automaton = buildAutomaton(trie.root);
  const plans = templates.map(planParams);
  const tree: CompiledTree = { stateCount: automaton.stateCount, automaton, templates, plans };
  return tree;
}

/**
 * Matches a raw request target (path, optional query string and fragment, still percent-encoded)
 * for `method`: bad_path checks on the raw path first, then one automaton step per segment, then the
 * winning template's parameters, percent-decoded (`repo` without a trailing `.git`).
 * Time is linear in the path's length whatever the table and the input. A plain path (the common
 * case, see scanPath) is matched in place by segment offsets, without splitting or decoding; any
 * other takes the careful path (splitPath, extractParams) with the same answers.
 * @example
 * import { compileRoutes, matchRoute } from 'tollgate';
 * const tree = compileRoutes([{ method: 'GET', template: '/repos/{owner}/{repo}/contents/{path}', multiSegment: 'path' }]);
 * matchRoute(tree, 'GET', '/repos/Octo/app.git/contents/docs/a%20b.md?ref=main');
 * // { kind: 'matched', route: 0, params: { owner: 'Octo', repo: 'app', path: 'docs/a b.md' } }
 */
export function matchRoute(tree: RouteTree, method: string, target: string): RouteMatch {
  const compiled = tree as CompiledTree;
  const count = scanPath(target);
  if (count < 0) return matchCarefully(compiled, method, target);
  // Fast path: a plain path, walked by the segment offsets scanPath left in scratch.bounds.
  const bounds = scratch.bounds;
  let state = compiled.automaton.start;
  for (let i = 0; i < count; i++) {
    const next = findEdge(state.edges, target, bounds[i]!, bounds[i + 1]! - 1) ?? state.other;
    if (next === null) return NO_MATCH;
    state = next;
  }
  const route = routeFor(state, method);
  if (route < 0) return NO_MATCH;
  const params = readParams(compiled.plans[route]!, target, bounds, count);
  if (params === null) return matchCarefully(compiled, method, target);
  return { kind: 'matched', route, params };
}

/**
 * The parameter names of a template, in order. Throws TollgateError `TOLLGATE_INVALID_TABLE` on a
 * malformed template.
 * @example
 * import { templateParams } from 'tollgate';
 * templateParams('/repos/{owner}/{repo}/git/ref/{ref}'); // ['owner', 'repo', 'ref']
 */
export function templateParams(template: string): string[] {
  const names: string[] = [];
  for (const segment of parseTemplate(template)) if (segment.kind !== 'static') names.push(segment.name);
  return names;
}

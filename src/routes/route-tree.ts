/** The route matcher: compiles endpoint templates once, then matches raw request targets to them. */
// Hot path: matchRoute runs on every request; the bench guards it.
import { TollgateError } from '../core/errors.js';
import { buildAutomaton } from './build-automaton.js';
import { flattenAutomaton } from './flat-automaton.js';
import { BAD_PATH, type CompiledTree, located, locateRoute } from './locate-route.js';
import { planParams } from './param-plan.js';
import { parseTemplate } from './parse-template.js';
import { createRouteTrie, insertRoute } from './route-trie.js';
import type { RouteInput, RouteIssue, RouteMatch, RouteTree } from './route-types.js';

const NO_MATCH: RouteMatch = Object.freeze({ kind: 'no_match' });

/**
 * Compiles routes into a deterministic automaton: all the work of priority (static beats
 * `{param}` beats a multi-segment parameter, at the earliest position where routes differ) is
 * done here, once. Returns the tree, or every refused route as a RouteIssue naming its index.
 * @example
 * import { tryCompileRoutes } from 'tollgate/routes';
 * tryCompileRoutes([{ method: 'GET', template: '/a/{x}' }, { method: 'GET', template: '/a/{y}' }]).issues;
 * // [{ route: 1, code: 'duplicate_route', other: 0, message: 'route table: `GET /a/{y}` conflicts with `GET /a/{x}`' }]
 */
export function tryCompileRoutes(routes: readonly RouteInput[]): { tree?: RouteTree; issues: RouteIssue[] } {
  const trie = createRouteTrie();
  const issues: RouteIssue[] = [];
  const templates = routes.map((route, index) => {
    try {
      const segments = parseTemplate(
        route.template,
        route.multiSegment,
        route.encodedSlash,
        route.stripGitSuffix,
      );
      const other = insertRoute(trie, index, route.method, route.template, segments);
      if (other !== undefined)
        issues.push({
          route: index,
          code: 'duplicate_route',
          other,
          message:
            routes[other]!.template === route.template
              ? `route table: \`${route.method} ${route.template}\` is listed twice`
              : `route table: \`${route.method} ${route.template}\` conflicts with \`${route.method} ${routes[other]!.template}\``,
        });
      return segments;
    } catch (error) {
      issues.push({ route: index, code: 'invalid_template', message: (error as Error).message });
      return [];
    }
  });
  if (issues.length > 0) return { issues };
  try {
    const automaton = buildAutomaton(trie.root);
    const plans = templates.map(planParams);
    const tree: CompiledTree = {
      stateCount: automaton.stateCount,
      automaton,
      flat: flattenAutomaton(automaton.start, plans),
      templates,
      plans,
    };
    return { tree, issues };
  } catch (error) {
    return { issues: [{ route: -1, code: 'too_ambiguous', message: (error as Error).message }] };
  }
}

/**
 * Like tryCompileRoutes, for routes known to be good: throws TollgateError
 * `TOLLGATE_INVALID_TABLE` naming the first refused route.
 * @example
 * import { compileRoutes, matchRoute } from 'tollgate/routes';
 * const tree = compileRoutes([
 *   { method: 'POST', template: '/orgs/{org}/actions/hosted-runners' },
 *   { method: 'POST', template: '/orgs/{org}/{security_product}/{enablement}' },
 * ]);
 * matchRoute(tree, 'POST', '/orgs/x/actions/hosted-runners').kind; // 'matched'
 */
export function compileRoutes(routes: readonly RouteInput[]): RouteTree {
  const { tree, issues } = tryCompileRoutes(routes);
  if (tree === undefined) throw new TollgateError('TOLLGATE_INVALID_TABLE', issues[0]!.message);
  return tree;
}

/**
 * Matches a raw request target (path, optional query string and fragment, still percent-encoded)
 * for `method`: bad_path checks on the raw path first, then one automaton step per segment, then the
 * winning template's parameters, percent-decoded (`.git` cut where the route asks). Spellings that
 * routers read as a listed route are matched as that route (repeated or trailing slashes, a static
 * segment in other letter case where no parameter could stand) or refused (see matchCarefully).
 * Time is linear in the path's length whatever the table and the input. A plain path (the common
 * case, see scanPath) is matched in place by segment offsets, without splitting or decoding; any
 * other takes the careful path (splitPath, extractParams) with the same answers.
 * @example
 * import { compileRoutes, matchRoute } from 'tollgate/routes';
 * const tree = compileRoutes([{ method: 'GET', template: '/repos/{owner}/{repo}/contents/{path}', multiSegment: 'path', stripGitSuffix: ['repo'] }]);
 * matchRoute(tree, 'GET', '/repos/Octo/app.git/contents/docs/a%20b.md?ref=main');
 * // { kind: 'matched', route: 0, params: { owner: 'Octo', repo: 'app', path: 'docs/a b.md' } }
 */
export function matchRoute(tree: RouteTree, method: string, target: string): RouteMatch {
  const route = locateRoute(tree, method, target);
  if (route >= 0) return { kind: 'matched', route, params: located.params };
  return route === BAD_PATH ? { kind: 'bad_path', message: located.message } : NO_MATCH;
}

/**
 * The parameter names of a template, in order. Throws TollgateError `TOLLGATE_INVALID_TABLE` on a
 * malformed template.
 * @example
 * import { templateParams } from './route-tree.js';
 * templateParams('/repos/{owner}/{repo}/git/ref/{ref}'); // ['owner', 'repo', 'ref']
 */
export function templateParams(template: string): string[] {
  const names: string[] = [];
  for (const segment of parseTemplate(template)) if (segment.kind !== 'static') names.push(segment.name);
  return names;
}

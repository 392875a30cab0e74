/** What the route matcher takes and answers: routes in; a match, a bad path or nothing out. */
import type { HttpMethod } from '../core/http-method.js';

/**
 * One endpoint to match: its method and template, and which parameters may hold a `/`.
 * @example
 * import { compileRoutes, matchRoute } from 'tollgate/routes';
 * const tree = compileRoutes([{ method: 'GET', template: '/repos/{owner}/{repo}/contents/{path}', multiSegment: 'path' }]);
 * matchRoute(tree, 'GET', '/repos/o/r/contents/docs/README.md');
 * // { kind: 'matched', route: 0, params: { owner: 'o', repo: 'r', path: 'docs/README.md' } }
 */
export interface RouteInput {
  readonly method: HttpMethod;
  /** e.g. `/repos/{owner}/{repo}/contents/{path}` */
  readonly template: string;
  /** Name of the template's LAST parameter when it may span several segments (`path`, `dir`, `ref`). */
  readonly multiSegment?: string;
  /** Parameters whose value may contain an encoded slash %2F (e.g. `environment_name`). */
  readonly encodedSlash?: readonly string[];
  /** One-segment parameters whose trailing `.git` is cut (`repo`: `app.git` names `app`). */
  readonly stripGitSuffix?: readonly string[];
}

/**
 * What a request target matched: a route (its index in the compileRoutes input) with decoded
 * parameters, a path the engine refuses to interpret (`bad_path`), or nothing.
 * @example
 * import { compileRoutes, matchRoute } from 'tollgate/routes';
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
 * import { compileRoutes } from 'tollgate/routes';
 * const tree = compileRoutes([{ method: 'GET', template: '/user/repos' }]);
 * tree.stateCount; // 3
 */
export interface RouteTree {
  readonly stateCount: number;
}

/**
 * A route the compiler refused, by its index in the compileRoutes input: a malformed template, or
 * the same template (parameter names aside) twice for one method (`other` is the first).
 */
export interface RouteIssue {
  readonly route: number;
  readonly code: 'invalid_template' | 'duplicate_route' | 'too_ambiguous';
  readonly message: string;
  readonly other?: number;
}

/** tollgate/routes: endpoint templates compiled once into a matcher; a method and raw path in, an endpoint and its params out. */
export { compileRoutes, matchRoute, templateParams, tryCompileRoutes } from './route-tree.js';
export type { RouteInput, RouteIssue, RouteMatch, RouteTree } from './route-types.js';

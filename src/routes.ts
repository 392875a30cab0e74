/** tollgate/routes: endpoint templates compiled once into a matcher; a method and raw path in, an endpoint and its params out. */
export { compileRoutes, matchRoute, tryCompileRoutes } from './routes/route-tree.js';
export type { RouteInput, RouteIssue, RouteMatch, RouteTree } from './routes/route-types.js';

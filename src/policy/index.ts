/** The policy evaluator's public part: compile tables, authorize requests, read requirements. */
export { createPolicy, type Policy } from './authorize.js';
export {
  compileTables,
  compileTablesOrThrow,
  type TableSource,
  type TableSources,
} from './compile-tables.js';
export {
  formatAcceptedPermissions,
  formatAcceptedScopes,
  parseAcceptedPermissions,
  parseAcceptedScopes,
} from './header-format.js';
export {
  DEFAULT_HEADER_NAMES,
  type HeaderNames,
  type PolicyOptions,
  type ResolvedPolicyOptions,
  resolvePolicyOptions,
} from './policy-options.js';
export {
  levelCovers,
  missingPermissions,
  missingScopes,
  permissionsMeet,
  scopesMeet,
  smallestMissing,
} from './requirement.js';
export {
  compileRoutes,
  matchRoute,
  type RouteInput,
  type RouteMatch,
  type RouteTree,
  templateParams,
} from './route-tree.js';
export { closeScopes, heldScopes } from './scope-closure.js';
export type * from './tables.js';
export * from './types.js';

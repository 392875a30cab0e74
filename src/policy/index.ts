/** tollgate/policy: the requirement form, the service's permission headers, and compiling tables from raw values. */
export { createPolicy, type Policy } from './authorize.js';
export { authorize } from './authorize-default.js';
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
export type { EndpointMatch, PolicyMatch, UnmatchedRequest } from './policy-match.js';
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
export { closeScopes, heldScopes } from './scope-closure.js';
export { shippedSources, shippedTables } from './shipped-tables.js';
export type * from './tables.js';
export * from './types.js';

/** tollgate/policy: the policy, the requirement form, the service's permission headers, and compiling tables from raw values. */

export { HTTP_METHODS, type HttpMethod } from './core/http-method.js';
export {
  type BareToken,
  type IdentityFacts,
  type Level,
  type PermissionToken,
  type ScopedToken,
  TOKEN_KINDS,
  type Token,
  type TokenKind,
} from './core/token.js';
export { createPolicy, type Policy } from './policy/authorize.js';
export { authorize } from './policy/authorize-default.js';
export { compileTables } from './policy/compile-tables.js';
export {
  formatAcceptedPermissions,
  formatAcceptedScopes,
  parseAcceptedPermissions,
  parseAcceptedScopes,
} from './policy/header-format.js';
export type { EndpointMatch, PolicyMatch, UnmatchedRequest } from './policy/policy-match.js';
export type { HeaderNames, PolicyOptions, ResolvedPolicyOptions } from './policy/policy-options.js';
export {
  missingPermissions,
  missingScopes,
  permissionsMeet,
  scopesMeet,
  smallestMissing,
} from './policy/requirement.js';
export { closeScopes, heldScopes } from './policy/scope-closure.js';
export { shippedSources, shippedTables } from './policy/shipped-tables.js';
export type { TableSource, TableSources } from './policy/table-sources.js';
export type {
  CompiledScopes,
  EndpointEntry,
  PermissionInfo,
  PolicyTables,
  RawEndpoint,
  RawListing,
  RawPermissionsTable,
  RawScopeRequirement,
  RawScopesTable,
} from './policy/tables.js';
export type {
  Addition,
  Decision,
  PolicyRequest,
  ReasonCode,
  Requirement,
  ResourceContext,
  ScopeRequirement,
} from './policy/types.js';

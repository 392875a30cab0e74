/** tollgate: permission and rate-limit policy engine for the repository-hosting service's REST interface. */

export { authorize } from './authorize-default.js';
export { isTollgateError, TollgateError, type TollgateErrorCode } from './errors.js';
export * from './limiter/index.js';
export * from './limits/index.js';
export * from './policy/index.js';
export * from './stores/index.js';
export * from './tables/index.js';

/** tollgate: permission and rate-limit policy engine for the repository-hosting service's REST interface. */
// The root is what a user calls or writes down. It bundles for any runtime: no node:*, ajv or yaml
// (test/package/neutral-bundle.test.ts). Optional concerns live behind subpaths: tollgate/tables
// (Node: files, validation, overlays, token files), tollgate/policy (requirements and headers),
// tollgate/limits (the pure step for custom stores), tollgate/routes (the matcher).

export { isTollgateError, TollgateError, type TollgateErrorCode } from './core/errors.js';
export type { Token, TokenKind } from './core/token.js';
export { createGate } from './gate/create-gate.js';
export type { GateAnswer, Settle } from './gate/gate-answer.js';
export type { Gate, GateOptions } from './gate/gate-types.js';
export type { RequestFacts } from './gate/request-facts.js';
export type { LookupToken } from './gate/resolve-token.js';
export { createLimiter } from './limiter/create-limiter.js';
export type {
  AdmitRequest,
  CompleteFacts,
  IdentitySnapshot,
  Limiter,
  LimiterOptions,
} from './limiter/limiter.js';
export { limitedResponse } from './limits/answers.js';
export type { WindowMode } from './limits/limits-config.js';
export type { LimitsStore } from './limits/limits-store.js';
export { type LimitedResponse, retryDelay } from './limits/retry-delay.js';
export type { Verdict } from './limits/verdict.js';
export type { WindowedRule } from './limits/windowed-rules.js';
export { createPolicy, type Policy } from './policy/authorize.js';
export { authorize } from './policy/authorize-default.js';
export type { EndpointMatch, PolicyMatch, UnmatchedRequest } from './policy/policy-match.js';
export type { PolicyOptions } from './policy/policy-options.js';
export { shippedTables } from './policy/shipped-tables.js';
export type { PolicyTables } from './policy/tables.js';
export type { Decision, PolicyRequest, ReasonCode, ResourceContext } from './policy/types.js';
export type { FailureOptions } from './stores/failure-options.js';
export { guardStore } from './stores/guarded-store.js';
export { createMemoryStore, type MemoryStore, type MemoryStoreOptions } from './stores/memory-store.js';

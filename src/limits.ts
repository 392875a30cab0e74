/** tollgate/limits: the pure rate-limit core for custom stores and tools: the store contract, the transition, who is counted, the service's answers, the client rules. */
// What a custom store needs: the store interfaces, `step` and its events, `stateExpiresAt`, a
// ticket ledger. What a tool needs: the config and its numbers, who is counted and how much, the
// answers. The kernel over packed rows (stepInto, the row layout, the logs) stays internal.

export type { LimitCharge, LimitsResource } from './core/limit-charge.js';
export { limitedResponse } from './limits/answers.js';
export { compileLimits } from './limits/compile-limits.js';
export { defaultLimits } from './limits/default-limits.js';
export { callerClassOf, identityOf, type LimitsCaller, type LimitsIdentity } from './limits/identity.js';
export type { IdentityState } from './limits/identity-state.js';
export { type InstallationFacts, installationLimit } from './limits/installation-limit.js';
export type { AdmitEvent, CompleteEvent, LimitEvent, ReleaseEvent, Ticket } from './limits/limit-event.js';
export {
  type CallerLimit,
  type InstallationLimitRule,
  type LimitAlgorithm,
  type LimitRule,
  type LimitsConfig,
  type LimitsHeaderNames,
  type ResourceLimit,
  RULE_ALGORITHMS,
  type WindowMode,
} from './limits/limits-config.js';
export { COUNTED_PER, type LimitLine, limitsReport } from './limits/limits-report.js';
export type { AsyncLimitsStore, LimitsStore, SyncLimitsStore } from './limits/limits-store.js';
export { nearestRule, type RuleCharge, type RuleStanding } from './limits/nearest-rule.js';
export { type PointCostFacts, pointCost } from './limits/point-cost.js';
export { httpDate, notModified, pollInterval, pollingHeaders } from './limits/poll-interval.js';
export {
  type CallerClass,
  type CallerFacts,
  type PrimaryLimits,
  primaryLimits,
} from './limits/primary-limit.js';
export { type RateLimitBody, type RateLimitResourceStatus, rateLimitBody } from './limits/rate-limit-body.js';
export { type LimitedResponse, type RetryDelayOptions, retryDelay } from './limits/retry-delay.js';
export { stateExpiresAt } from './limits/state-expiry.js';
export { step } from './limits/step.js';
export { createTicketLedger, type TicketLedger } from './limits/ticket-ledger.js';
export { unavailableVerdict } from './limits/unavailable-verdict.js';
export type { LimitBody, LimitReason, StepResult, Verdict } from './limits/verdict.js';
export type { WindowedRule } from './limits/windowed-rules.js';

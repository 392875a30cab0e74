/** tollgate/limits: the pure rate-limit core (for custom stores and tools): transitions, the service's answers, the client rules. */
export { allowedVerdict, deniedVerdict, limitedResponse, rateLimitHeaders } from './answers.js';
export { compileLimits } from './compile-limits.js';
export { defaultLimits } from './default-limits.js';
export { CLOCK_SKEW_TOLERANCE_MS, effectiveTime } from './effective-time.js';
export { callerClassOf, identityOf, type LimitsCaller, type LimitsIdentity } from './identity.js';
export type { IdentityState } from './identity-state.js';
export { type InstallationFacts, installationLimit } from './installation-limit.js';
export { addressIdentity, canonicalAddress } from './ip-address.js';
export {
  AdmissionTicket,
  type AdmitEvent,
  type CompleteEvent,
  eventKey,
  type LimitEvent,
  type ReleaseEvent,
  type Ticket,
} from './limit-event.js';
export {
  algorithmOf,
  type CallerLimit,
  type InstallationLimitRule,
  LIMIT_RULES,
  LIMITS_RESOURCES,
  type LimitAlgorithm,
  type LimitRule,
  type LimitsConfig,
  type LimitsHeaderNames,
  type LimitsResource,
  type ResourceLimit,
  RULE_ALGORITHMS,
  type WindowMode,
} from './limits-config.js';
export { COUNTED_PER, type LimitLine, limitsReport } from './limits-report.js';
export type { AsyncLimitsStore, LimitsStore, SyncLimitsStore } from './limits-store.js';
export {
  CPU_QUANTUM_MS,
  LOG_RULES,
  type LogPlan,
  logPlan,
  WINDOWED_RULES,
  type WindowedRule,
} from './log-rules.js';
export { loadSlot, logSlot, SPILLED } from './log-slot.js';
export { nearestRule, type RuleCharge, type RuleStanding } from './nearest-rule.js';
export { type PointCostFacts, pointCost } from './point-cost.js';
export { httpDate, notModified, pollInterval, pollingHeaders } from './poll-interval.js';
export {
  type CallerClass,
  type CallerFacts,
  type PrimaryLimits,
  primaryLimits,
  resourceWindowMs,
} from './primary-limit.js';
export { type RateLimitBody, type RateLimitResourceStatus, rateLimitBody } from './rate-limit-body.js';
export { type LimitedResponse, type RetryDelayOptions, retryDelay } from './retry-delay.js';
export { type RuleUsage, ruleUsage } from './rule-usage.js';
export { createSlidingLog, flattenLog, loadLog, type SlidingLog } from './sliding-log.js';
export { stateExpiresAt } from './state-expiry.js';
export { packState, STATE_WIDTH, type StateRow, unpackState } from './state-layout.js';
export { step } from './step.js';
export { unheldVerdict } from './step-finish.js';
export { stepInto } from './step-into.js';
export {
  createRowTicketLedger,
  createTicketLedger,
  type RowTicketLedger,
  type TicketLedger,
} from './ticket-ledger.js';
export type { LimitBody, LimitReason, StepResult, Verdict } from './verdict.js';
export { withWindowModes } from './with-window-modes.js';

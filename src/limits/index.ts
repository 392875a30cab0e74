/** The rate-limit core: pure transitions, the service's answers and the client rules. */
export { allowedVerdict, deniedVerdict, limitedResponse, rateLimitHeaders } from './answers.js';
export { compileLimits } from './compile-limits.js';
export { currentReset, windowEnd, windowUsed } from './fixed-window.js';
export { callerClassOf, identityOf, type LimitsCaller, type LimitsIdentity } from './identity.js';
export { EMPTY_IDENTITY_STATE, IDENTITY_STATE_FIELDS, type IdentityState } from './identity-state.js';
export { type InstallationFacts, installationLimit } from './installation-limit.js';
export {
  type AdmitEvent,
  type CompleteEvent,
  eventKey,
  type LimitEvent,
  type ReleaseEvent,
  type Ticket,
} from './limit-event.js';
export {
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
} from './limits-config.js';
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
export { stateExpiresAt } from './state-expiry.js';
export { packState, SLOT, STATE_WIDTH, type StateRow, unpackState } from './state-layout.js';
export { step } from './step.js';
export { stepInto } from './step-into.js';
export { bucketFits, bucketWaitMs, debtWaitMs, refillSpent } from './token-bucket.js';
export type { LimitBody, LimitReason, StepResult, Verdict } from './verdict.js';

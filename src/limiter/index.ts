/** The limiter: the limits core over a store, with a clock. */

export { defaultLimits } from '../limits/index.js';
export { createLimiter } from './create-limiter.js';
export type {
  AdmitRequest,
  CompleteFacts,
  IdentitySnapshot,
  Limiter,
  LimiterOptions,
  StoreResult,
} from './limiter.js';
export { mergeLimits, type PartialLimitsConfig } from './merge-limits.js';

/** The limiter: the limits core over a store, with a clock. */
export { createLimiter } from './create-limiter.js';
export { defaultLimits } from './default-limits.js';
export type { AdmitRequest, CompleteFacts, Limiter, LimiterOptions, StoreResult } from './limiter.js';

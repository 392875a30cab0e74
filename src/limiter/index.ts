/** The limiter: the limits core over a store, with a clock. */
export {
  type AdmitRequest,
  type CompleteFacts,
  createLimiter,
  type Limiter,
  type LimiterOptions,
  type StoreResult,
} from './create-limiter.js';
export { defaultLimits } from './default-limits.js';

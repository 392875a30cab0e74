/** Stores of the limiter's per-identity state. */
export type { AsyncLimitsStore, LimitsStore, SyncLimitsStore } from '../limits/limits-store.js';
export { createMemoryStore, type MemoryStore, type MemoryStoreOptions } from './memory-store.js';

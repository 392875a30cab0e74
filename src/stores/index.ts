/** Stores of the limiter's per-identity state. */
export { createMemoryStore, type MemoryStore, type MemoryStoreOptions } from './memory-store.js';

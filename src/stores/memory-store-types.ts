/** The memory store's options and its face beyond the store contract (housekeeping and counts). */
import type { LimitsConfig } from '../limits/limits-config.js';
import type { SyncLimitsStore } from '../limits/limits-store.js';

/**
 * Options of `createMemoryStore`.
 * @example
 * import { type MemoryStoreOptions } from 'tollgate';
 * const options: MemoryStoreOptions = { maxIdentities: 100_000 };
 */
export interface MemoryStoreOptions {
  /** At most this many identities are kept; beyond it one not used recently is dropped. Default 1,000,000. */
  readonly maxIdentities?: number;
}

/**
 * The memory store, with its housekeeping.
 * @example
 * import { createMemoryStore } from 'tollgate';
 * import type { MemoryStore } from './memory-store.js';
 * const store: MemoryStore = createMemoryStore();
 * store.size; // 0
 */
export interface MemoryStore extends SyncLimitsStore {
  /** Identities currently held. */
  readonly size: number;
  /** Identities dropped while their state was still live (the store was full). */
  readonly evictions: number;
  /** Drops every identity whose state has expired at `now`; returns how many. */
  sweep(now: number, config: LimitsConfig): number;
  /** Forgets one identity: fresh limits, and its tickets in flight settle nothing. */
  reset(key: string): void;
  clear(): void;
  /** Nothing to flush: every answer was given when it was asked for. Here for the store contract. */
  close(): void;
}

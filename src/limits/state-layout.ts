/** IdentityState as 16 numbers in a row: the layout the hot path and the memory store share. */
import type { IdentityState } from './identity-state.js';

/**
 * Position of each IdentityState field in the packed row (the order of IDENTITY_STATE_FIELDS).
 * @example
 * import { STATE_WIDTH, unpackState } from './state-layout.js';
 * import { SLOT } from './state-layout.js';
 * const row = new Float64Array(STATE_WIDTH);
 * row[SLOT.coreUsed] = 12;
 * unpackState(row, 0).coreUsed; // 12
 */
export const SLOT = {
  at: 0,
  inFlight: 1,
  restPoints: 2,
  graphqlPoints: 3,
  cpu: 4,
  graphqlCpu: 5,
  contentMinute: 6,
  contentHour: 7,
  coreReset: 8,
  coreUsed: 9,
  searchReset: 10,
  searchUsed: 11,
  graphqlReset: 12,
  graphqlUsed: 13,
  lfsReset: 14,
  lfsUsed: 15,
} as const;

/**
 * Numbers per identity: one per SLOT.
 * @example
 * import { STATE_WIDTH } from './state-layout.js';
 * const row = new Float64Array(STATE_WIDTH); // 16 numbers
 */
export const STATE_WIDTH = SLOT.lfsUsed + 1;

/**
 * The first of the six numbers the log rules keep (LOG_RULES order): log rule `i` is number
 * `ROW_LOGS + i` (`restPoints` to `contentHour`), a bucket's spent amount or a packed sliding log.
 * @example
 * import { ROW_LOGS, SLOT } from './state-layout.js';
 * ROW_LOGS + 4 === SLOT.contentMinute; // true (content_per_minute is log rule 4)
 */
export const ROW_LOGS = SLOT.restPoints;

/**
 * The first number of the primary windows (`coreReset`): each resource keeps its window's end,
 * then its count, from here to the end of the row.
 * @example
 * import { ROW_WINDOWS, SLOT } from './state-layout.js';
 * ROW_WINDOWS === SLOT.coreReset; // true
 */
export const ROW_WINDOWS = SLOT.coreReset;

/**
 * Writable rows: a Float64Array slab, or a plain array.
 * @example
 * import { STATE_WIDTH, type StateRow } from './state-layout.js';
 * const row: StateRow = new Float64Array(STATE_WIDTH);
 */
export type StateRow = { [index: number]: number };

/**
 * Writes `state` into `row` at `offset`.
 * @example
 * import { createLimiter } from 'tollgate';
 * import { packState, STATE_WIDTH } from './state-layout.js';
 * const limiter = createLimiter();
 * limiter.admit({ identity: limiter.identify({ kind: 'classic', user: 'octocat' }) });
 * const row = new Float64Array(STATE_WIDTH);
 * packState(limiter.store.read('user:octocat')!, row, 0); // row[9] (coreUsed) === 1
 */
export function packState(state: IdentityState, row: StateRow, offset: number): void {
  row[offset + SLOT.at] = state.at;
  row[offset + SLOT.inFlight] = state.inFlight;
  row[offset + SLOT.restPoints] = state.restPoints;
  row[offset + SLOT.graphqlPoints] = state.graphqlPoints;
  row[offset + SLOT.cpu] = state.cpu;
  row[offset + SLOT.graphqlCpu] = state.graphqlCpu;
  row[offset + SLOT.contentMinute] = state.contentMinute;
  row[offset + SLOT.contentHour] = state.contentHour;
  row[offset + SLOT.coreReset] = state.coreReset;
  row[offset + SLOT.coreUsed] = state.coreUsed;
  row[offset + SLOT.searchReset] = state.searchReset;
  row[offset + SLOT.searchUsed] = state.searchUsed;
  row[offset + SLOT.graphqlReset] = state.graphqlReset;
  row[offset + SLOT.graphqlUsed] = state.graphqlUsed;
  row[offset + SLOT.lfsReset] = state.lfsReset;
  row[offset + SLOT.lfsUsed] = state.lfsUsed;
}

/**
 * Reads the IdentityState stored in `row` at `offset`.
 * @example
 * import { unpackState } from './state-layout.js';
 * // One identity after one request: at, inFlight, restPoints, ..., coreReset, coreUsed, ...
 * const row = [1_700_000_000_000, 1, 60_000, 0, 0, 0, 0, 0, 1_700_003_600_000, 1, 0, 0, 0, 0, 0, 0];
 * unpackState(row, 0).coreUsed; // 1
 */
export function unpackState(row: ArrayLike<number>, offset: number): IdentityState {
  return {
    at: row[offset + SLOT.at]!,
    inFlight: row[offset + SLOT.inFlight]!,
    restPoints: row[offset + SLOT.restPoints]!,
    graphqlPoints: row[offset + SLOT.graphqlPoints]!,
    cpu: row[offset + SLOT.cpu]!,
    graphqlCpu: row[offset + SLOT.graphqlCpu]!,
    contentMinute: row[offset + SLOT.contentMinute]!,
    contentHour: row[offset + SLOT.contentHour]!,
    coreReset: row[offset + SLOT.coreReset]!,
    coreUsed: row[offset + SLOT.coreUsed]!,
    searchReset: row[offset + SLOT.searchReset]!,
    searchUsed: row[offset + SLOT.searchUsed]!,
    graphqlReset: row[offset + SLOT.graphqlReset]!,
    graphqlUsed: row[offset + SLOT.graphqlUsed]!,
    lfsReset: row[offset + SLOT.lfsReset]!,
    lfsUsed: row[offset + SLOT.lfsUsed]!,
  };
}

/** IdentityState as 16 numbers in a row: the layout the hot path and the memory store share. */
import type { IdentityState } from './identity-state.js';

/**
 * Numbers per identity.
 * @example
 * import { STATE_WIDTH } from './state-layout.js';
 * const row = new Float64Array(STATE_WIDTH); // 16 numbers
 */
export const STATE_WIDTH = 16;

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
  row[offset] = state.at;
  row[offset + 1] = state.inFlight;
  row[offset + 2] = state.restPoints;
  row[offset + 3] = state.graphqlPoints;
  row[offset + 4] = state.cpu;
  row[offset + 5] = state.graphqlCpu;
  row[offset + 6] = state.contentMinute;
  row[offset + 7] = state.contentHour;
  row[offset + 8] = state.coreReset;
  row[offset + 9] = state.coreUsed;
  row[offset + 10] = state.searchReset;
  row[offset + 11] = state.searchUsed;
  row[offset + 12] = state.graphqlReset;
  row[offset + 13] = state.graphqlUsed;
  row[offset + 14] = state.lfsReset;
  row[offset + 15] = state.lfsUsed;
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
    at: row[offset]!,
    inFlight: row[offset + 1]!,
    restPoints: row[offset + 2]!,
    graphqlPoints: row[offset + 3]!,
    cpu: row[offset + 4]!,
    graphqlCpu: row[offset + 5]!,
    contentMinute: row[offset + 6]!,
    contentHour: row[offset + 7]!,
    coreReset: row[offset + 8]!,
    coreUsed: row[offset + 9]!,
    searchReset: row[offset + 10]!,
    searchUsed: row[offset + 11]!,
    graphqlReset: row[offset + 12]!,
    graphqlUsed: row[offset + 13]!,
    lfsReset: row[offset + 14]!,
    lfsUsed: row[offset + 15]!,
  };
}

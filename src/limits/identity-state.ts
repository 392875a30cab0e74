/** The state one identity needs for every rule: sixteen numbers and six sliding logs, all zero or empty for a new identity. */

/**
 * What a store keeps per identity. Flat numbers only, so a store can pack it (the memory store
 * keeps 16 float64 per identity) or write it as one hash (a Redis store). Bucket fields hold what
 * was spent, scaled by the rule's window in ms so every update is exact integer arithmetic
 * (see `token-bucket.ts`); 0 means a full bucket. Window fields hold the window's end (epoch ms)
 * and the requests counted in it.
 * @example
 * import { createLimiter } from 'tollgate';
 * import type { IdentityState } from 'tollgate/limits';
 * const limiter = createLimiter();
 * limiter.admit({ identity: limiter.identify({ kind: 'classic', user: 'octocat' }) });
 * const state: IdentityState | undefined = limiter.store.read('user:octocat'); // state?.coreUsed === 1
 */
export interface IdentityState {
  /** Time of the identity's last event (epoch ms); every bucket is refilled up to it. */
  readonly at: number;
  /** Requests admitted and not yet completed or released. */
  readonly inFlight: number;
  readonly restPoints: number;
  readonly graphqlPoints: number;
  readonly cpu: number;
  readonly graphqlCpu: number;
  readonly contentMinute: number;
  readonly contentHour: number;
  readonly coreReset: number;
  readonly coreUsed: number;
  readonly searchReset: number;
  readonly searchUsed: number;
  readonly graphqlReset: number;
  readonly graphqlUsed: number;
  readonly lfsReset: number;
  readonly lfsUsed: number;
  /**
   * The six sliding logs (LOG_RULES order), each as `[time, weight, time, weight, ...]` oldest
   * first: present in every state a step or a store returns; absent means all empty. A log the
   * last events did not write may still hold entries that already left its window (a store drops
   * them at the latest when an event next writes that log); they count for nothing, and a
   * reader that wants the live ones keeps the entries newer than `at` minus the rule's window.
   */
  readonly logs?: readonly (readonly number[])[];
}

/**
 * The state of an identity never seen (or fully rested): nothing spent, nothing counted.
 * @example
 * import { type AdmitEvent, defaultLimits, step } from 'tollgate/limits';
 * import { EMPTY_IDENTITY_STATE } from './identity-state.js';
 * const event: AdmitEvent = { kind: 'admit', key: 'user:octocat', resource: 'core', limit: 5000,
 *   cost: 1, content: false, graphql: false, countsPrimary: true };
 * step(EMPTY_IDENTITY_STATE, event, 1_700_000_000_000, defaultLimits()).state.coreUsed; // 1
 */
export const EMPTY_IDENTITY_STATE: IdentityState = Object.freeze({
  at: 0,
  inFlight: 0,
  restPoints: 0,
  graphqlPoints: 0,
  cpu: 0,
  graphqlCpu: 0,
  contentMinute: 0,
  contentHour: 0,
  coreReset: 0,
  coreUsed: 0,
  searchReset: 0,
  searchUsed: 0,
  graphqlReset: 0,
  graphqlUsed: 0,
  lfsReset: 0,
  lfsUsed: 0,
});

/**
 * Field names in a fixed order, for stores that pack the state into arrays.
 * @example
 * import { IDENTITY_STATE_FIELDS } from './identity-state.js';
 * IDENTITY_STATE_FIELDS[0]; // 'at'
 */
export const IDENTITY_STATE_FIELDS: readonly Exclude<keyof IdentityState, 'logs'>[] = Object.keys(
  EMPTY_IDENTITY_STATE,
) as Exclude<keyof IdentityState, 'logs'>[];

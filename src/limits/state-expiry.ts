/** When an identity's state becomes the same as a new identity's, so a store may drop it. */
import type { IdentityState } from './identity-state.js';
import type { LimitsConfig } from './limits-config.js';
import { logPlan } from './log-rules.js';
import { SLOT } from './state-layout.js';

/**
 * The epoch ms from which `state` behaves exactly like no state at all: every window ended, every
 * bucket refilled, every in-flight slot freed or its lease expired. The memory store evicts such
 * state; a Redis store can use it as the key's expiry (`PEXPIREAT`).
 * @example
 * import { createLimiter } from 'tollgate';
 * import { stateExpiresAt } from 'tollgate/limits';
 * const limiter = createLimiter({ clock: () => 1_700_000_000_000 });
 * limiter.admit({ identity: limiter.identify({ kind: 'classic', user: 'octocat' }) });
 * stateExpiresAt(limiter.store.read('user:octocat')!, limiter.config); // 1700003600000: the core window's end
 */
export function stateExpiresAt(state: IdentityState, config: LimitsConfig): number {
  const sec = config.secondary;
  const at = state.at;
  // A bucket with `spent` point·ms refills in spent / capacity ms.
  const refilled = (spent: number, capacity: number) => (spent > 0 ? at + Math.ceil(spent / capacity) : 0);
  return Math.max(
    state.coreReset,
    state.searchReset,
    state.graphqlReset,
    state.lfsReset,
    state.inFlight > 0 ? at + sec.concurrency.leaseMs : 0,
    refilled(state.restPoints, sec.points.rest),
    refilled(state.graphqlPoints, sec.points.graphql),
    refilled(state.contentMinute, sec.content.perMinute),
    refilled(state.contentHour, sec.content.perHour),
    logsExpiry(state.logs, config),
  );
}

/** When every log has emptied: its newest entry leaves one span after its stamp (0 without entries). */
function logsExpiry(logs: IdentityState['logs'], config: LimitsConfig): number {
  if (logs === undefined) return 0;
  const spans = logPlan(config).spans;
  let latest = 0;
  for (let i = 0; i < logs.length; i++) {
    const flat = logs[i]!;
    if (flat.length >= 2) latest = Math.max(latest, flat[flat.length - 2]! + spans[i]!);
  }
  return latest;
}

/**
 * stateExpiresAt over a packed row (see SLOT) without its logs: the numbers of the rules the
 * config counts in a log are not read (a store may pack the log there); add its logs' expiry.
 * Reads the row in place: what a store's sweep calls for each row it passes.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { STATE_WIDTH } from './state-layout.js';
 * import { rowExpiresAt } from './state-expiry.js';
 * import { SLOT } from './state-layout.js';
 * const row = new Float64Array(STATE_WIDTH);
 * row[SLOT.coreReset] = 1_700_003_600_000;
 * rowExpiresAt(row, 0, defaultLimits()); // 1700003600000
 */
export function rowExpiresAt(row: ArrayLike<number>, offset: number, config: LimitsConfig): number {
  const sec = config.secondary;
  const uses = logPlan(config).uses;
  const at = row[offset + SLOT.at]!;
  const refilled = (slot: number, capacity: number) => {
    const spent = row[offset + slot]!;
    return spent > 0 ? at + Math.ceil(spent / capacity) : 0;
  };
  return Math.max(
    row[offset + SLOT.coreReset]!,
    row[offset + SLOT.searchReset]!,
    row[offset + SLOT.graphqlReset]!,
    row[offset + SLOT.lfsReset]!,
    row[offset + SLOT.inFlight]! > 0 ? at + sec.concurrency.leaseMs : 0,
    uses[0] ? 0 : refilled(SLOT.restPoints, sec.points.rest),
    uses[1] ? 0 : refilled(SLOT.graphqlPoints, sec.points.graphql),
    uses[4] ? 0 : refilled(SLOT.contentMinute, sec.content.perMinute),
    uses[5] ? 0 : refilled(SLOT.contentHour, sec.content.perHour),
  );
}

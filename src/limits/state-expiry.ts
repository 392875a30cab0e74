/** When an identity's state becomes the same as a new identity's, so a store may drop it. */
import type { IdentityState } from './identity-state.js';
import type { LimitsConfig } from './limits-config.js';
import { logPlan } from './log-rules.js';

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

/** When an identity's state becomes the same as a new identity's, so a store may drop it. */
import type { IdentityState } from './identity-state.js';
import type { LimitsConfig } from './limits-config.js';
import { strictBase } from './strict-state.js';
import { strictExpiresAt, WINDOWED_RULES, type WindowedRule } from './strict-window.js';

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
    refilled(state.cpu, sec.cpu.totalMs),
    refilled(state.graphqlCpu, sec.cpu.graphqlMs),
    refilled(state.contentMinute, sec.content.perMinute),
    refilled(state.contentHour, sec.content.perHour),
    strictExpiry(state.strict, config),
  );
}

/** When the strict sub-window counters count nothing any more (0 without them). */
function strictExpiry(strict: readonly number[] | undefined, config: LimitsConfig): number {
  if (strict === undefined) return 0;
  const windows: Record<WindowedRule, number> = {
    rest_points: config.secondary.points.windowMs,
    graphql_points: config.secondary.points.windowMs,
    content_per_minute: 60_000,
    content_per_hour: 3_600_000,
  };
  return Math.max(...WINDOWED_RULES.map((rule) => strictExpiresAt(strict, strictBase(rule), windows[rule])));
}

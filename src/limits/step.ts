/** The pure transition of the limits: `step(state, event, now, config) -> { state, verdict }`. */
import { EMPTY_IDENTITY_STATE, type IdentityState } from './identity-state.js';
import type { LimitEvent } from './limit-event.js';
import type { LimitsConfig } from './limits-config.js';
import { logPlan } from './log-rules.js';
import { createSlidingLog, flattenLog, loadLog } from './sliding-log.js';
import { packState, SLOT, STATE_WIDTH, unpackState } from './state-layout.js';
import { stepInto } from './step-into.js';
import type { StepResult } from './verdict.js';

// Scratch rows: step packs the state, runs the one transition (stepInto) and unpacks the result.
// Safe to share: JavaScript runs one step at a time and stepInto never calls back out.
const input = new Float64Array(STATE_WIDTH);
const output = new Float64Array(STATE_WIDTH);
const logs = Array.from({ length: 6 }, createSlidingLog);

/**
 * The pure transition of the limits. No clock, no I/O, no randomness: time is `now` (epoch ms).
 * `admit` checks every rule and charges all of them or none; `complete` frees the in-flight slot,
 * charges CPU time and refunds a 304; `release` frees the slot of an aborted request. A denied
 * admission returns the very state object it was given. Time is `effectiveTime(now, state.at)`:
 * bad clock readings neither corrupt nor freeze the state. `step` counts `inFlight` as given: a
 * store sets it to the tickets it holds and settles only tickets it holds (see TicketLedger);
 * `ticketId` is the id the admitted request's ticket carries.
 * @example
 * import { defaultLimits, step } from 'tollgate/limits';
 * const { state, verdict } = step(undefined, { kind: 'admit', key: 'user:octocat', resource: 'core',
 *   limit: 5000, cost: 1, content: false, graphql: false, countsPrimary: true }, Date.now(), defaultLimits());
 * verdict.headers['x-ratelimit-remaining']; // '4999'
 */
export function step(
  state: IdentityState | undefined,
  event: LimitEvent,
  now: number,
  config: LimitsConfig,
  ticketId = 0,
): StepResult {
  const s = state ?? EMPTY_IDENTITY_STATE;
  packState(s, input, 0);
  for (let i = 0; i < 6; i++) loadLog(logs[i]!, s.logs?.[i]);
  const verdict = stepInto(input, 0, event, now, config, output, 0, -1, ticketId, logs);
  const changed = event.kind !== 'admit' || verdict.allowed;
  if (!changed) return { state: s, verdict };
  // The kernel reads only the logs the event needs: the others may hold entries that have left.
  const edge = output[SLOT.at]!;
  const spans = logPlan(config).spans;
  return {
    state: { ...unpackState(output, 0), logs: logs.map((log, i) => flattenLog(log, edge - spans[i]!)) },
    verdict,
  };
}

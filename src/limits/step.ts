/** The pure transition of the limits: `step(state, event, now, config) -> { state, verdict }`. */
import { EMPTY_IDENTITY_STATE, type IdentityState } from './identity-state.js';
import type { LimitEvent } from './limit-event.js';
import type { LimitsConfig } from './limits-config.js';
import { LogArena } from './log-arena.js';
import { logPlan } from './log-rules.js';
import { packLogs, rowLogs } from './row-logs.js';
import { packState, ROW_LOGS, STATE_WIDTH, unpackState } from './state-layout.js';
import { stepInto } from './step-into.js';
import type { StepResult } from './verdict.js';

// A scratch row and arena: step packs the state, runs the one transition (stepInto) and unpacks
// the result. Safe to share: JavaScript runs one step at a time and stepInto never calls back out.
const row = new Float64Array(STATE_WIDTH);
const arena = new LogArena();

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
  const plan = logPlan(config);
  arena.clear();
  packState(s, row, 0);
  packLogs(s, row, 0, arena, plan);
  const verdict = stepInto(row, 0, event, now, config, arena, -1, ticketId);
  const changed = event.kind !== 'admit' || verdict.allowed;
  if (!changed) return { state: s, verdict };
  // The numbers of the rules counted in logs show 0: their logs are shown apart, only the entries
  // still counted at the state's time (the kernel reads only the logs the event needs).
  const logs = rowLogs(row, 0, arena, plan);
  const at = row[0]!;
  for (let i = 0; i < 6; i++) {
    if (!plan.uses[i]) {
      // A rule counted in a bucket: the kernel never reads a log given for it; it is shown as given.
      const edge = at - plan.spans[i]!;
      logs[i] = (s.logs?.[i] ?? []).filter((_, k, flat) => flat[k - (k & 1)]! > edge);
    } else row[ROW_LOGS + i] = 0;
  }
  return { state: { ...unpackState(row, 0), logs }, verdict };
}

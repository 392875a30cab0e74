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

const ceilAll = (flat: readonly number[]): number[] =>
  flat.map((value, k) => (k % 2 === 0 ? Math.ceil(value) : value));

/**
 * `state` with its times in whole milliseconds. The kernel keeps every time whole (it floors each
 * clock reading), and a log's single entry is packed as one number from its whole age; a state made
 * elsewhere with a fractional time read as given once counted a one-point entry as eight million
 * points and refused the next request. Each time is rounded up to the next whole ms: every time
 * moves by less than 1 ms (a window may then end, or an entry count, as at that millisecond), and
 * the state answers exactly as the whole-ms state it rounds to.
 */
function inWholeMs(state: IdentityState): IdentityState {
  const logs = state.logs;
  let whole = Number.isInteger(state.at);
  if (whole && logs !== undefined)
    for (let i = 0; i < logs.length && whole; i++)
      for (let k = 0; k < logs[i]!.length; k += 2) if (!Number.isInteger(logs[i]![k])) whole = false;
  if (whole || !Number.isFinite(state.at)) return state;
  return { ...state, at: Math.ceil(state.at), logs: logs?.map(ceilAll) };
}

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
  const s = state === undefined ? EMPTY_IDENTITY_STATE : inWholeMs(state);
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

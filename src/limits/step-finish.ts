/** The transition of `complete` and `release` over a packed row, and what admission shares with it. */
// Hot path: one call per completion; bench/limits.mjs guards its speed.
import { allowedVerdict } from './answers.js';
import { effectiveTime } from './effective-time.js';
import { currentReset, windowEnd, windowUsed } from './fixed-window.js';
import type { CompleteEvent, ReleaseEvent, Ticket } from './limit-event.js';
import type { LimitsConfig, LimitsResource } from './limits-config.js';
import { finishLogs, type LogPlan, logPlan } from './log-rules.js';
import { resourceWindowMs } from './primary-limit.js';
import { chargeLog, dropLeft, type SlidingLog, settleLog } from './sliding-log.js';
import { ROW_WINDOWS, SLOT, STATE_WIDTH, type StateRow } from './state-layout.js';
import { refillSpent } from './token-bucket.js';
import type { Verdict } from './verdict.js';

/**
 * Offset of a resource's window (reset, then used) in the row; see SLOT.
 * @example
 * import { windowSlot } from './step-finish.js';
 * windowSlot('search'); // 10
 */
export function windowSlot(resource: LimitsResource): number {
  return resource === 'core'
    ? SLOT.coreReset
    : resource === 'search'
      ? SLOT.searchReset
      : resource === 'graphql'
        ? SLOT.graphqlReset
        : SLOT.lfsReset;
}

/**
 * Drops, from the logs in `mask` (bits, LOG_RULES order: see admitLogs), the entries that left by
 * `time`, before they are read. A store writes back only the logs an event touched, so a log no
 * event read may still hold entries that left by the identity's time `at`: every event drops to
 * `max(t, at)`, which leaves each log as if every event had settled every log.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { createSlidingLog } from './sliding-log.js';
 * import { logPlan } from './log-rules.js';
 * import { readyLogs } from './step-finish.js';
 * readyLogs(Array.from({ length: 6 }, createSlidingLog), 0b101, 61_000, logPlan(defaultLimits()));
 */
export function readyLogs(logs: readonly SlidingLog[], mask: number, time: number, plan: LogPlan): void {
  const spans = plan.spans;
  for (let i = 0; mask >> i !== 0; i++) if ((mask & (1 << i)) !== 0) dropLeft(logs[i]!, time, spans[i]!);
}

/**
 * After a clock stepped back to `t` (behind the identity's time), a state-writing event restamps
 * at `t` every entry stamped after it, in every log (see settleLog): they count one span from now.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { logPlan } from './log-rules.js';
 * import { chargeLog, createSlidingLog, flattenLog } from './sliding-log.js';
 * import { restampLogs } from './step-finish.js';
 * const logs = Array.from({ length: 6 }, createSlidingLog);
 * chargeLog(logs[0]!, 5_000, 1, 1);
 * restampLogs(logs, 2_000, logPlan(defaultLimits()));
 * flattenLog(logs[0]!); // [2000, 1]
 */
export function restampLogs(logs: readonly SlidingLog[], t: number, plan: LogPlan): void {
  const kept = plan.kept;
  for (let k = 0; k < kept.length; k++) settleLog(logs[kept[k]!]!, t, plan.spans[kept[k]!]!);
}

/**
 * Completes or releases a ticket the store holds: frees its slot, charges CPU time into the CPU
 * logs, refunds a 304 in the window that counted it. See stepInto.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { AdmissionTicket } from './limit-event.js';
 * import { createSlidingLog } from './sliding-log.js';
 * import { STATE_WIDTH } from './state-layout.js';
 * import { finish } from './step-finish.js';
 * import { SLOT } from './state-layout.js';
 * const row = new Float64Array(STATE_WIDTH);
 * row[SLOT.inFlight] = 1;
 * const ticket = new AdmissionTicket('user:octocat', 'core', false, 5000, 0, -1, 7);
 * const logs = Array.from({ length: 6 }, createSlidingLog);
 * finish(row, 0, { kind: 'complete', ticket, status: 200, cpuMs: 40 }, 1_000, defaultLimits(), row, 0, logs);
 * logs[2]!.sum; // 40
 */
export function finish(
  src: ArrayLike<number>,
  so: number,
  e: CompleteEvent | ReleaseEvent,
  t: number,
  config: LimitsConfig,
  dst: StateRow,
  dso: number,
  logs: readonly SlidingLog[],
): Verdict {
  const sec = config.secondary;
  const plan = logPlan(config);
  const uses = plan.uses;
  const ticket = e.ticket;
  const at = src[so + SLOT.at]!;
  const elapsed = t - at;
  const ws = windowSlot(ticket.resource);
  const storedReset = src[so + ws]!;
  const storedUsed = src[so + ws + 1]!;
  // seed 000, "Polling rules", rule 2: "a 304 does not consume rate limit": refund the count, but
  // only in the window that counted it (a new window never counted it).
  const refund =
    e.kind === 'complete' &&
    e.status === 304 &&
    ticket.countedReset !== 0 &&
    ticket.countedReset === storedReset &&
    storedUsed > 0;
  const used = refund ? storedUsed - 1 : storedUsed;
  // Only a ticket the store held gets here (see TicketLedger): its slot is freed.
  const held = src[so + SLOT.inFlight]!;
  const inFlight = held <= 0 ? 0 : held - 1;
  // One request's charge is clamped to the rule's capacity: a mismeasured `cpuMs` (1e12, about
  // 21 years) charges one ceiling, which leaves the count after one window like any other. (NaN
  // charges nothing; the limiter rejects non-finite and negative values before they get here.)
  const cpuMs = e.cpuMs > 0 ? Math.ceil(e.cpuMs) : 0;
  const rest = uses[0] ? 0 : refillSpent(src[so + SLOT.restPoints]!, sec.points.rest, elapsed);
  const gql = uses[1] ? 0 : refillSpent(src[so + SLOT.graphqlPoints]!, sec.points.graphql, elapsed);
  const minute = uses[4] ? 0 : refillSpent(src[so + SLOT.contentMinute]!, sec.content.perMinute, elapsed);
  const hour = uses[5] ? 0 : refillSpent(src[so + SLOT.contentHour]!, sec.content.perHour, elapsed);
  if (dst !== src || dso !== so) copyRow(src, so, dst, dso);
  dst[dso + SLOT.at] = t;
  dst[dso + SLOT.inFlight] = inFlight;
  dst[dso + SLOT.restPoints] = rest;
  dst[dso + SLOT.graphqlPoints] = gql;
  dst[dso + SLOT.cpu] = 0;
  dst[dso + SLOT.graphqlCpu] = 0;
  dst[dso + SLOT.contentMinute] = minute;
  dst[dso + SLOT.contentHour] = hour;
  dst[dso + ws + 1] = used;
  // Only the CPU logs are charged; a clock that stepped back settles every log.
  if (t < at) {
    readyLogs(logs, plan.keptMask, at, plan);
    restampLogs(logs, t, plan);
  } else readyLogs(logs, finishLogs(ticket.graphql, plan), t, plan);
  chargeLog(logs[2]!, t, Math.min(cpuMs, sec.cpu.totalMs), plan.quanta[2]!);
  if (ticket.graphql) chargeLog(logs[3]!, t, Math.min(cpuMs, sec.cpu.graphqlMs), plan.quanta[3]!);
  // currentReset and windowUsed, with the window's end computed once.
  const end = windowEnd(t, resourceWindowMs(ticket.resource, config));
  const open = storedReset > t && storedReset <= end;
  return allowedVerdict(
    ticket.resource,
    ticket.limit,
    open ? used : 0,
    open ? storedReset : end,
    null,
    config,
  );
}

/**
 * The answer to completing or releasing a ticket the store does not hold (a copy, a forgery, one
 * already settled, one whose lease ran out): the identity's current numbers, and no change.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { AdmissionTicket } from './limit-event.js';
 * import { STATE_WIDTH } from './state-layout.js';
 * import { unheldVerdict } from './step-finish.js';
 * const row = new Float64Array(STATE_WIDTH); // a new identity's state
 * const ticket = new AdmissionTicket('user:octocat', 'core', false, 5000, 0, -1, 7);
 * unheldVerdict(row, 0, ticket, 1_700_000_000_000, defaultLimits()).allowed; // true (nothing refused, nothing changed)
 */
export function unheldVerdict(
  src: ArrayLike<number>,
  so: number,
  ticket: Ticket,
  now: number,
  config: LimitsConfig,
): Verdict {
  const t = effectiveTime(now, src[so + SLOT.at]!);
  const ws = windowSlot(ticket.resource);
  const windowMs = resourceWindowMs(ticket.resource, config);
  const used = windowUsed(src[so + ws]!, src[so + ws + 1]!, t, windowMs);
  return allowedVerdict(
    ticket.resource,
    ticket.limit,
    used,
    currentReset(src[so + ws]!, t, windowMs),
    null,
    config,
  );
}

/**
 * Copies the primary windows (ROW_WINDOWS to the end of the row): the numbers an event does not
 * recompute.
 * @example
 * import { copyRow } from './step-finish.js';
 * const dst = new Float64Array(16);
 * copyRow(new Float64Array(16).fill(3), 0, dst, 0); // dst[8] === 3
 */
export function copyRow(src: ArrayLike<number>, so: number, dst: StateRow, dso: number): void {
  for (let i = ROW_WINDOWS; i < STATE_WIDTH; i++) dst[dso + i] = src[so + i]!;
}

/** The transition of `complete` and `release` over a packed row, and what admission shares with it. */
// Hot path: one call per completion; bench/limits.mjs guards its speed.
import { allowedVerdict, resetSeconds } from './answers.js';
import { effectiveTime } from './effective-time.js';
import { currentReset, windowUsed } from './fixed-window.js';
import type { CompleteEvent, ReleaseEvent, Ticket } from './limit-event.js';
import type { LimitsConfig, LimitsResource } from './limits-config.js';
import type { LogArena } from './log-arena.js';
import { finishLogs, type LogPlan, logPlan } from './log-rules.js';
import { ageLog, chargeLog, closeLog, restampLog } from './log-writes.js';
import { OPEN, openLog, open as openScratch, setEventTimes } from './open-logs.js';
import { resourceWindowMs } from './primary-limit.js';
import { ROW_LOGS, SLOT } from './state-layout.js';
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
 * Opens the logs in `mask` (bits, LOG_RULES order: see admitLogs) of the row at `offset`, after
 * setLogTimes: the entries that left by the drop time are dropped as each opens. A log no event
 * read may still hold entries that left by the row's time: every event drops to the later of its
 * time and the row's, which leaves each log as if every event had read every log.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { LogArena } from './log-arena.js';
 * import { logPlan } from './log-rules.js';
 * import { setLogTimes } from './open-logs.js';
 * import { openLogs } from './step-finish.js';
 * setLogTimes(0, 61_000, 61_000);
 * openLogs(new LogArena(), new Float64Array(16), 0, 0b101, logPlan(defaultLimits()));
 */
export function openLogs(
  arena: LogArena,
  row: Float64Array,
  offset: number,
  mask: number,
  plan: LogPlan,
): void {
  const spans = plan.spans;
  for (let i = 0; mask >> i !== 0; i++)
    if ((mask & (1 << i)) !== 0) openLog(arena, i, row, offset + ROW_LOGS + i, spans[i]!);
}

/**
 * Writes back into the row at `offset`, whose time is now the event's, every log `plan` keeps:
 * those in `mask` (opened by the event) closed, the others aged to the row's new time (ageLog).
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { LogArena } from './log-arena.js';
 * import { logPlan } from './log-rules.js';
 * import { setLogTimes } from './open-logs.js';
 * import { closeLogs, openLogs } from './step-finish.js';
 * const arena = new LogArena();
 * const row = new Float64Array(16);
 * setLogTimes(0, 61_000, 61_000);
 * openLogs(arena, row, 0, 0b101, logPlan(defaultLimits()));
 * row[0] = 61_000;
 * closeLogs(arena, row, 0, 0b101, logPlan(defaultLimits()));
 */
export function closeLogs(
  arena: LogArena,
  row: Float64Array,
  offset: number,
  mask: number,
  plan: LogPlan,
): void {
  const kept = plan.kept;
  for (let k = 0; k < kept.length; k++) {
    const i = kept[k]!;
    if ((mask & (1 << i)) !== 0) closeLog(arena, i, row, offset + ROW_LOGS + i);
    else ageLog(arena, i, row, offset + ROW_LOGS + i, plan.spans[i]!);
  }
}

/**
 * Completes or releases a ticket the store holds, in place, at the clock's reading in
 * `open[OPEN.CLOCK]`: frees its slot, charges CPU time into the CPU logs, refunds a 304 in the
 * window that counted it. See stepIntoAtClock.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { AdmissionTicket } from './limit-event.js';
 * import { LogArena } from './log-arena.js';
 * import { STATE_WIDTH } from './state-layout.js';
 * import { OPEN, open } from './open-logs.js';
 * import { finish } from './step-finish.js';
 * import { SLOT } from './state-layout.js';
 * const row = new Float64Array(STATE_WIDTH);
 * row[SLOT.inFlight] = 1;
 * const ticket = new AdmissionTicket('user:octocat', 'core', false, 5000, 0, -1, 7);
 * open[OPEN.CLOCK] = 1_000; // the clock's reading for the event (see stepIntoAtClock)
 * finish(row, 0, { kind: 'complete', ticket, status: 200, cpuMs: 40 }, defaultLimits(), new LogArena());
 * row[SLOT.cpu]; // 40 (one entry, stamped 1,000, packed)
 */
export function finish(
  row: Float64Array,
  o: number,
  e: CompleteEvent | ReleaseEvent,
  config: LimitsConfig,
  arena: LogArena,
): Verdict {
  const sec = config.secondary;
  const plan = logPlan(config);
  const uses = plan.uses;
  const ticket = e.ticket;
  const at = row[o + SLOT.at]!;
  // t = effectiveTime(now, at) at the clock's reading, through the shared scratch (see setEventTimes).
  setEventTimes(row, o + SLOT.at);
  const t = openScratch[OPEN.NOW]!;
  const elapsed = t - at;
  const ws = windowSlot(ticket.resource);
  const storedReset = row[o + ws]!;
  const storedUsed = row[o + ws + 1]!;
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
  const held = row[o + SLOT.inFlight]!;
  // One request's charge is clamped to the rule's capacity: a mismeasured `cpuMs` (1e12, about
  // 21 years) charges one ceiling, which leaves the count after one window like any other. (NaN
  // charges nothing; the limiter rejects non-finite and negative values before they get here.)
  const cpuMs = e.cpuMs > 0 ? Math.ceil(e.cpuMs) : 0;
  // Only the CPU logs are charged; a clock that stepped back reads and restamps every log.
  const back = t < at;
  const mask = back ? plan.keptMask : finishLogs(ticket.graphql, plan);
  openLogs(arena, row, o, mask, plan);
  if (back) for (const i of plan.kept) restampLog(arena, i);
  chargeLog(arena, 2, Math.min(cpuMs, sec.cpu.totalMs), plan.quanta[2]!);
  if (ticket.graphql) chargeLog(arena, 3, Math.min(cpuMs, sec.cpu.graphqlMs), plan.quanta[3]!);
  row[o + SLOT.at] = t;
  row[o + SLOT.inFlight] = held <= 0 ? 0 : held - 1;
  if (!uses[0]) row[o + SLOT.restPoints] = refillSpent(row[o + SLOT.restPoints]!, sec.points.rest, elapsed);
  if (!uses[1])
    row[o + SLOT.graphqlPoints] = refillSpent(row[o + SLOT.graphqlPoints]!, sec.points.graphql, elapsed);
  if (!uses[4])
    row[o + SLOT.contentMinute] = refillSpent(row[o + SLOT.contentMinute]!, sec.content.perMinute, elapsed);
  if (!uses[5])
    row[o + SLOT.contentHour] = refillSpent(row[o + SLOT.contentHour]!, sec.content.perHour, elapsed);
  row[o + ws + 1] = used;
  closeLogs(arena, row, o, mask, plan);
  // currentReset and windowUsed, with the window's end computed once.
  // windowEnd and resetSeconds written out: a time passed to a call V8 does not inline is boxed
  // into a heap number (16 B per completion in the sampling heap profile).
  const end = Math.ceil((t + resourceWindowMs(ticket.resource, config)) / 1000) * 1000;
  const open = storedReset > t && storedReset <= end;
  const resetS = Math.ceil((open ? storedReset : end) / 1000);
  return allowedVerdict(ticket.resource, ticket.limit, open ? used : 0, resetS, null, config);
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
    resetSeconds(currentReset(src[so + ws]!, t, windowMs)),
    null,
    config,
  );
}

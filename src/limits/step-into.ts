/** The transition of the limits over a packed state row and its logs: the one implementation `step` wraps. */
// Hot path: one call per admission and one per completion; bench/limits.mjs guards its speed.
import { allowedVerdict, deniedVerdict } from './answers.js';
import { AdmissionTicket, type AdmitEvent, type LimitEvent } from './limit-event.js';
import type { LimitRule, LimitsConfig } from './limits-config.js';
import type { LogArena } from './log-arena.js';
import { admitLogs, logPlan } from './log-rules.js';
import { chargeLog, restampLog } from './log-writes.js';
import { logWait, OPEN, open as openScratch, setEventTimes } from './open-logs.js';
import { resourceWindowMs } from './primary-limit.js';
import { SLOT } from './state-layout.js';
import { closeLogs, finish, openLogs, windowSlot } from './step-finish.js';
import { bucketWaitMs, refillSpent } from './token-bucket.js';
import type { Verdict } from './verdict.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** tollgate's choice (the seed is silent): a full concurrency rule asks to retry after 1 s. */
const CONCURRENCY_RETRY_MS = 1000;

/**
 * Applies `event` to the state in `row` at `offset`, in place, returning the verdict (`hint` goes
 * into the ticket; see Ticket). The row changes exactly when the state does: always for
 * `complete`/`release`, only when allowed for `admit` (a denied request changes no state). The
 * numbers of the rules counted in a sliding log hold their logs: a packed single entry, or a
 * block of `arena` (see open-logs.ts). Prefer `step`, which takes and returns IdentityState
 * objects; the memory store keeps rows and calls this directly.
 * @example
 * import { type AdmitEvent, defaultLimits } from 'tollgate/limits';
 * import { LogArena } from './log-arena.js';
 * import { STATE_WIDTH } from './state-layout.js';
 * import { stepInto } from './step-into.js';
 * const event: AdmitEvent = { kind: 'admit', key: 'user:octocat', resource: 'core', limit: 5000,
 *   cost: 1, content: false, graphql: false, countsPrimary: true };
 * const row = new Float64Array(STATE_WIDTH);
 * stepInto(row, 0, event, 1_700_000_000_000, defaultLimits(), new LogArena()).allowed; // true, and row updated in place
 */
export function stepInto(
  row: Float64Array,
  offset: number,
  event: LimitEvent,
  now: number,
  config: LimitsConfig,
  arena: LogArena,
  hint = -1,
  ticketId = 0,
): Verdict {
  openScratch[OPEN.CLOCK] = now;
  return stepIntoAtClock(row, offset, event, config, arena, hint, ticketId);
}

/**
 * stepInto at the clock's reading the caller wrote into `open[OPEN.CLOCK]` (open-logs.ts) rather
 * than passed: an epoch-ms double passed to a function V8 does not inline is boxed into a 16-byte
 * heap number, one per event, so the memory store and the limiter hand the time over in memory.
 * @example
 * import { type AdmitEvent, defaultLimits } from 'tollgate/limits';
 * import { LogArena } from './log-arena.js';
 * import { OPEN, open } from './open-logs.js';
 * import { STATE_WIDTH } from './state-layout.js';
 * import { stepIntoAtClock } from './step-into.js';
 * const event: AdmitEvent = { kind: 'admit', key: 'user:octocat', resource: 'core', limit: 5000,
 *   cost: 1, content: false, graphql: false, countsPrimary: true };
 * open[OPEN.CLOCK] = 1_700_000_000_000;
 * stepIntoAtClock(new Float64Array(STATE_WIDTH), 0, event, defaultLimits(), new LogArena()).allowed; // true
 */
export function stepIntoAtClock(
  row: Float64Array,
  offset: number,
  event: LimitEvent,
  config: LimitsConfig,
  arena: LogArena,
  hint = -1,
  ticketId = 0,
): Verdict {
  return event.kind === 'admit'
    ? admit(row, offset, event, config, arena, hint, ticketId)
    : finish(row, offset, event, config, arena);
}

function admit(
  row: Float64Array,
  o: number,
  e: AdmitEvent,
  config: LimitsConfig,
  arena: LogArena,
  hint: number,
  ticketId: number,
): Verdict {
  const sec = config.secondary;
  const plan = logPlan(config);
  const { uses, spans, capacities } = plan;
  // Bad readings (NaN, a clock stepped back, a stamp from the future) neither corrupt nor freeze
  // the state: see effectiveTime. Whole milliseconds keep every count exact.
  const at = row[o + SLOT.at]!;
  const now = openScratch[OPEN.CLOCK]!;
  // t = effectiveTime(now, at), through the shared scratch (see setEventTimes).
  setEventTimes(row, o + SLOT.at);
  const t = openScratch[OPEN.NOW]!;
  // retry-after counts from the caller's clock, which may be a little behind t (skew): waiting it
  // must be enough.
  const reading = now >= 0 && Number.isFinite(now) ? Math.min(Math.floor(now), t) : t;
  // Negative after a clock stepped back: no refill for time that did not pass.
  const elapsed = t - at;
  const ws = windowSlot(e.resource);
  const storedReset = row[o + ws]!;
  const storedUsed = row[o + ws + 1]!;
  const windowMs = resourceWindowMs(e.resource, config);
  // currentReset and windowUsed, with the window's end computed once.
  // windowEnd, written out: a time passed to a call V8 does not inline is boxed (see finish).
  const end = Math.ceil((t + windowMs) / 1000) * 1000;
  const open = storedReset > t && storedReset <= end;
  const reset = open ? storedReset : end;
  const used = open ? storedUsed : 0;

  // seed 000, "Errors": primary first, so a caller out of requests learns x-ratelimit-remaining 0.
  // The secondary rules are still read, so a retry at the reset is not refused by one of them.
  const primaryDenied = e.countsPrimary && used >= e.limit;

  // Secondary rules: the first that denies names the verdict; the latest free-up time among all
  // that deny becomes retry-after, so a client that waits it out is not refused by another one.
  let rule: LimitRule | null = null;
  let retryAt = t;
  // The store has set this to the tickets it holds with a lease running (see TicketLedger).
  const inFlight = row[o + SLOT.inFlight]!;
  // INVARIANT: at most `concurrency.limit` (100) requests of an identity are in flight.
  if (inFlight >= sec.concurrency.limit) {
    rule = 'concurrency';
    retryAt = t + CONCURRENCY_RETRY_MS;
  }
  // Only the logs this request is checked against are read; a clock that stepped back reads all.
  // Entries that left count for nothing: dropped as each log opens, at the later of the two times.
  const back = t < at;
  const mask = back ? plan.keptMask : admitLogs(e.graphql, e.content, plan);
  openLogs(arena, row, o, mask, plan);
  const pw = sec.points.windowMs;
  // A rule counted in a log keeps its log in the row: its bucket is refilled only in bucket mode.
  const rest = uses[0] ? 0 : refillSpent(row[o + SLOT.restPoints]!, sec.points.rest, elapsed);
  const gql = uses[1] ? 0 : refillSpent(row[o + SLOT.graphqlPoints]!, sec.points.graphql, elapsed);
  const p = e.graphql ? 1 : 0;
  // INVARIANT (sliding): the points charged in any (t - W, t] never exceed the capacity.
  const pointsWait = uses[p]
    ? logWait(arena, p, spans[p]!, e.cost, capacities[p]!)
    : bucketWaitMs(e.graphql ? gql : rest, e.cost, capacities[p]!, pw);
  if (pointsWait > 0) {
    rule ??= e.graphql ? 'graphql_points' : 'rest_points';
    retryAt = Math.max(retryAt, t + pointsWait);
  }
  // CPU is charged after the response: admitted while the CPU counted is below the ceiling (1 ms
  // more fits; charges are whole ms).
  const cpuWait = logWait(arena, 2, spans[2]!, 1, capacities[2]!);
  if (cpuWait > 0) {
    rule ??= 'cpu';
    retryAt = Math.max(retryAt, t + cpuWait);
  }
  if (e.graphql) {
    const gqlWait = logWait(arena, 3, spans[3]!, 1, capacities[3]!);
    if (gqlWait > 0) {
      rule ??= 'graphql_cpu';
      retryAt = Math.max(retryAt, t + gqlWait);
    }
  }
  const perMinute = sec.content.perMinute;
  const perHour = sec.content.perHour;
  const minute = uses[4] ? 0 : refillSpent(row[o + SLOT.contentMinute]!, perMinute, elapsed);
  const hour = uses[5] ? 0 : refillSpent(row[o + SLOT.contentHour]!, perHour, elapsed);
  if (e.content) {
    const minuteWait = uses[4]
      ? logWait(arena, 4, spans[4]!, 1, perMinute)
      : bucketWaitMs(minute, 1, perMinute, MINUTE);
    if (minuteWait > 0) {
      rule ??= 'content_per_minute';
      retryAt = Math.max(retryAt, t + minuteWait);
    }
    const hourWait = uses[5]
      ? logWait(arena, 5, spans[5]!, 1, perHour)
      : bucketWaitMs(hour, 1, perHour, HOUR);
    if (hourWait > 0) {
      rule ??= 'content_per_hour';
      retryAt = Math.max(retryAt, t + hourWait);
    }
  }
  // INVARIANT: a denied request changes no state (all or nothing): return before any write.
  if (primaryDenied) {
    const freed = rule === null ? reset : Math.max(reset, retryAt);
    return deniedVerdict('primary', e.key, e.resource, e.limit, used, reset, freed, reading, config);
  }
  if (rule !== null)
    return deniedVerdict(rule, e.key, e.resource, e.limit, used, reset, retryAt, reading, config);

  // `GET /rate_limit` neither counts nor opens a window (seed 000, "Rate limit status").
  const counted = e.countsPrimary;
  const newUsed = counted ? used + 1 : used;
  row[o + SLOT.at] = t;
  row[o + SLOT.inFlight] = inFlight + 1;
  if (back) for (const i of plan.kept) restampLog(arena, i);
  if (uses[p]) chargeLog(arena, p, e.cost, 1);
  if (!uses[0]) row[o + SLOT.restPoints] = e.graphql ? rest : rest + e.cost * pw;
  if (!uses[1]) row[o + SLOT.graphqlPoints] = e.graphql ? gql + e.cost * pw : gql;
  if (e.content && uses[4]) chargeLog(arena, 4, 1, 1);
  if (e.content && uses[5]) chargeLog(arena, 5, 1, 1);
  if (!uses[4]) row[o + SLOT.contentMinute] = e.content ? minute + MINUTE : minute;
  if (!uses[5]) row[o + SLOT.contentHour] = e.content ? hour + HOUR : hour;
  if (counted) {
    row[o + ws] = reset;
    row[o + ws + 1] = newUsed;
  }
  closeLogs(arena, row, o, mask, plan);
  // The window's end in seconds (see AdmissionTicket.counted): no heap number per admission.
  const ticket = AdmissionTicket.counted(
    e.key,
    e.resource,
    e.graphql,
    e.limit,
    counted ? reset / 1000 : 0,
    hint,
    ticketId,
  );
  return allowedVerdict(e.resource, e.limit, newUsed, Math.ceil(reset / 1000), ticket, config);
}

/** The transition of the limits over a packed state row: the one implementation `step` wraps. */
// Hot path: one call per admission and one per completion; bench/limits.mjs guards its speed.
import { TollgateError } from '../core/errors.js';
import { allowedVerdict, deniedVerdict } from './answers.js';
import { effectiveTime } from './effective-time.js';
import { windowEnd } from './fixed-window.js';
import { AdmissionTicket, type AdmitEvent, type LimitEvent } from './limit-event.js';
import type { LimitRule, LimitsConfig } from './limits-config.js';
import { admitLogs, logPlan } from './log-rules.js';
import { resourceWindowMs } from './primary-limit.js';
import { chargeLog, logWaitMs, type SlidingLog } from './sliding-log.js';
import { SLOT, type StateRow } from './state-layout.js';
import { copyRow, finish, readyLogs, restampLogs, windowSlot } from './step-finish.js';
import { bucketWaitMs, refillSpent } from './token-bucket.js';
import type { Verdict } from './verdict.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** tollgate's choice (the seed is silent): a full concurrency rule asks to retry after 1 s. */
const CONCURRENCY_RETRY_MS = 1000;

/**
 * Applies `event` to the state in `src` at `so` and writes the next state to `dst` at `dso`,
 * returning the verdict (`hint` goes into the ticket; see Ticket). The next state is written
 * exactly when it differs: always for `complete`/`release`, only when allowed for `admit` (a
 * denied request changes no state). `src` and `dst` may be the same row: every read happens
 * before the first write. `logs` are the identity's six sliding logs (LOG_RULES order; see
 * SlidingLog), updated in place with the row; the row's numbers of the rules that count in a log
 * are written 0 (a store may keep a packed log there: see log-slot.ts). Prefer `step`, which takes
 * and returns IdentityState objects; stores that keep packed rows call this directly.
 * @example
 * import { type AdmitEvent, defaultLimits } from 'tollgate/limits';
 * import { createSlidingLog } from './sliding-log.js';
 * import { STATE_WIDTH } from './state-layout.js';
 * import { stepInto } from './step-into.js';
 * const event: AdmitEvent = { kind: 'admit', key: 'user:octocat', resource: 'core', limit: 5000,
 *   cost: 1, content: false, graphql: false, countsPrimary: true };
 * const row = new Float64Array(STATE_WIDTH);
 * const logs = Array.from({ length: 6 }, createSlidingLog);
 * stepInto(row, 0, event, 1_700_000_000_000, defaultLimits(), row, 0, -1, 0, logs).allowed; // true, and row updated in place
 */
export function stepInto(
  src: ArrayLike<number>,
  so: number,
  event: LimitEvent,
  now: number,
  config: LimitsConfig,
  dst: StateRow,
  dso: number,
  hint = -1,
  ticketId = 0,
  logs: readonly SlidingLog[] | null = null,
): Verdict {
  if (logs === null || logs.length !== 6)
    throw new TollgateError(
      'TOLLGATE_INVALID_OPTION',
      "limits: stepInto needs the identity's six sliding logs",
    );
  // Bad readings (NaN, a clock stepped back, a stamp from the future) neither corrupt nor freeze
  // the state: see effectiveTime. Whole milliseconds keep every count exact.
  const t = effectiveTime(now, src[so + SLOT.at]!);
  // retry-after counts from the caller's clock, which may be a little behind t (skew): waiting it
  // must be enough.
  const reading = now >= 0 && Number.isFinite(now) ? Math.min(Math.floor(now), t) : t;
  return event.kind === 'admit'
    ? admit(src, so, event, t, reading, config, dst, dso, hint, ticketId, logs)
    : finish(src, so, event, t, config, dst, dso, logs);
}

function admit(
  src: ArrayLike<number>,
  so: number,
  e: AdmitEvent,
  t: number,
  reading: number,
  config: LimitsConfig,
  dst: StateRow,
  dso: number,
  hint: number,
  ticketId: number,
  logs: readonly SlidingLog[],
): Verdict {
  const sec = config.secondary;
  const plan = logPlan(config);
  const { uses, spans, capacities } = plan;
  const at = src[so + SLOT.at]!;
  // Negative after a clock stepped back: no refill for time that did not pass.
  const elapsed = t - at;
  const ws = windowSlot(e.resource);
  const storedReset = src[so + ws]!;
  const storedUsed = src[so + ws + 1]!;
  const windowMs = resourceWindowMs(e.resource, config);
  // currentReset and windowUsed, with the window's end computed once.
  const end = windowEnd(t, windowMs);
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
  const inFlight = src[so + SLOT.inFlight]!;
  // INVARIANT: at most `concurrency.limit` (100) requests of an identity are in flight.
  if (inFlight >= sec.concurrency.limit) {
    rule = 'concurrency';
    retryAt = t + CONCURRENCY_RETRY_MS;
  }
  // Entries that left count for nothing: dropped before reading (see readyLogs), refused or not.
  // Only the logs this request is checked against are read; a clock that stepped back settles all.
  const back = t < at;
  readyLogs(logs, back ? plan.keptMask : admitLogs(e.graphql, e.content, plan), back ? at : t, plan);
  const pw = sec.points.windowMs;
  // A rule counted in a log keeps 0 in the row: its bucket is refilled only in bucket mode.
  const rest = uses[0] ? 0 : refillSpent(src[so + SLOT.restPoints]!, sec.points.rest, elapsed);
  const gql = uses[1] ? 0 : refillSpent(src[so + SLOT.graphqlPoints]!, sec.points.graphql, elapsed);
  const p = e.graphql ? 1 : 0;
  const pointsRule = e.graphql ? 'graphql_points' : 'rest_points';
  // INVARIANT (sliding): the points charged in any (t - W, t] never exceed the capacity.
  const pointsWait = uses[p]
    ? logWaitMs(logs[p]!, t, spans[p]!, e.cost, capacities[p]!)
    : bucketWaitMs(e.graphql ? gql : rest, e.cost, capacities[p]!, pw);
  if (pointsWait > 0) {
    rule ??= pointsRule;
    retryAt = Math.max(retryAt, t + pointsWait);
  }
  // CPU is charged after the response: admitted while the CPU counted is below the ceiling (1 ms
  // more fits; charges are whole ms).
  const cpuWait = logWaitMs(logs[2]!, t, spans[2]!, 1, capacities[2]!);
  if (cpuWait > 0) {
    rule ??= 'cpu';
    retryAt = Math.max(retryAt, t + cpuWait);
  }
  if (e.graphql) {
    const gqlWait = logWaitMs(logs[3]!, t, spans[3]!, 1, capacities[3]!);
    if (gqlWait > 0) {
      rule ??= 'graphql_cpu';
      retryAt = Math.max(retryAt, t + gqlWait);
    }
  }
  const perMinute = sec.content.perMinute;
  const perHour = sec.content.perHour;
  const minute = uses[4] ? 0 : refillSpent(src[so + SLOT.contentMinute]!, perMinute, elapsed);
  const hour = uses[5] ? 0 : refillSpent(src[so + SLOT.contentHour]!, perHour, elapsed);
  if (e.content) {
    const minuteWait = uses[4]
      ? logWaitMs(logs[4]!, t, spans[4]!, 1, perMinute)
      : bucketWaitMs(minute, 1, perMinute, MINUTE);
    if (minuteWait > 0) {
      rule ??= 'content_per_minute';
      retryAt = Math.max(retryAt, t + minuteWait);
    }
    const hourWait = uses[5]
      ? logWaitMs(logs[5]!, t, spans[5]!, 1, perHour)
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
  if (dst !== src || dso !== so) copyRow(src, so, dst, dso);
  dst[dso + SLOT.at] = t;
  dst[dso + SLOT.inFlight] = inFlight + 1;
  if (back) restampLogs(logs, t, plan);
  if (uses[p]) chargeLog(logs[p]!, t, e.cost, 1);
  // A rule counted in a log keeps 0 in the row (the store may pack the log there).
  dst[dso + SLOT.restPoints] = uses[0] ? 0 : e.graphql ? rest : rest + e.cost * pw;
  dst[dso + SLOT.graphqlPoints] = uses[1] ? 0 : e.graphql ? gql + e.cost * pw : gql;
  dst[dso + SLOT.cpu] = 0;
  dst[dso + SLOT.graphqlCpu] = 0;
  if (e.content && uses[4]) chargeLog(logs[4]!, t, 1, 1);
  if (e.content && uses[5]) chargeLog(logs[5]!, t, 1, 1);
  dst[dso + SLOT.contentMinute] = uses[4] ? 0 : e.content ? minute + MINUTE : minute;
  dst[dso + SLOT.contentHour] = uses[5] ? 0 : e.content ? hour + HOUR : hour;
  if (counted) {
    dst[dso + ws] = reset;
    dst[dso + ws + 1] = newUsed;
  }
  const ticket = new AdmissionTicket(
    e.key,
    e.resource,
    e.graphql,
    e.limit,
    counted ? reset : 0,
    hint,
    ticketId,
  );
  return allowedVerdict(e.resource, e.limit, newUsed, reset, ticket, config);
}

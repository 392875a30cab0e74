/** The transition of the limits over a packed state row: the one implementation `step` wraps. */
// Hot path: one call per admission and one per completion; bench/limits.mjs guards its speed.
import { TollgateError } from '../core/errors.js';
import { allowedVerdict, deniedVerdict } from './answers.js';
import { effectiveTime } from './effective-time.js';
import { currentReset, windowUsed } from './fixed-window.js';
import {
  AdmissionTicket,
  type AdmitEvent,
  type CompleteEvent,
  type LimitEvent,
  type ReleaseEvent,
  type Ticket,
} from './limit-event.js';
import type { LimitRule, LimitsConfig, LimitsResource } from './limits-config.js';
import { resourceWindowMs } from './primary-limit.js';
import type { StateRow } from './state-layout.js';
import { hasStrictRules, strictBase } from './strict-state.js';
import { strictCharge, strictWaitMs } from './strict-window.js';
import { bucketWaitMs, debtWaitMs, refillSpent } from './token-bucket.js';
import type { Verdict } from './verdict.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** tollgate's choice (the seed is silent): a full concurrency rule asks to retry after 1 s. */
const CONCURRENCY_RETRY_MS = 1000;

/** Offset of a resource's window (reset, then used) in the row; see SLOT. */
function windowSlot(resource: LimitsResource): number {
  return resource === 'core' ? 8 : resource === 'search' ? 10 : resource === 'graphql' ? 12 : 14;
}

/**
 * Applies `event` to the state in `src` at `so` and writes the next state to `dst` at `dso`,
 * returning the verdict (`hint` goes into the ticket; see Ticket). The next state is written exactly when it differs: always for
 * `complete`/`release`, only when allowed for `admit` (a denied request changes no state). `src`
 * and `dst` may be the same row: every read happens before the first write. Prefer `step`, which
 * takes and returns IdentityState objects; stores that keep packed rows call this directly.
 * @example
 * import { type AdmitEvent, defaultLimits, STATE_WIDTH, stepInto } from 'tollgate/limits';
 * const event: AdmitEvent = { kind: 'admit', key: 'user:octocat', resource: 'core', limit: 5000,
 *   cost: 1, content: false, graphql: false, countsPrimary: true };
 * const row = new Float64Array(STATE_WIDTH);
 * stepInto(row, 0, event, 1_700_000_000_000, defaultLimits(), row, 0).allowed; // true, and row updated in place
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
  strict: Float64Array | null = null,
  sto = 0,
): Verdict {
  // Bad readings (NaN, a clock stepped back, a stamp from the future) neither corrupt nor freeze
  // the state: see effectiveTime. Whole milliseconds keep buckets exact.
  const t = effectiveTime(now, src[so]!);
  // retry-after counts from the caller's clock, which may be a little behind t (skew): waiting it
  // must be enough.
  const reading = now >= 0 && Number.isFinite(now) ? Math.min(Math.floor(now), t) : t;
  return event.kind === 'admit'
    ? admit(src, so, event, t, reading, config, dst, dso, hint, ticketId, strict, sto)
    : finish(src, so, event, t, config, dst, dso);
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
  strict: Float64Array | null,
  sto: number,
): Verdict {
  const sec = config.secondary;
  const modes = sec.windowModes;
  if (strict === null && hasStrictRules(config))
    throw new TollgateError(
      'TOLLGATE_INVALID_OPTION',
      'limits: a strict window mode needs the strict state row (see step)',
    );
  // Negative after a clock stepped back: no refill for time that did not pass.
  const elapsed = t - src[so]!;
  const ws = windowSlot(e.resource);
  const storedReset = src[so + ws]!;
  const storedUsed = src[so + ws + 1]!;
  const windowMs = resourceWindowMs(e.resource, config);
  const reset = currentReset(storedReset, t, windowMs);
  const used = windowUsed(storedReset, storedUsed, t, windowMs);

  // seed 000, "Errors": primary first, so a caller out of requests learns x-ratelimit-remaining 0.
  // The secondary rules are still read, so a retry at the reset is not refused by one of them.
  const primaryDenied = e.countsPrimary && used >= e.limit;

  // Secondary rules: the first that denies names the verdict; the latest free-up time among all
  // that deny becomes retry-after, so a client that waits it out is not refused by another one.
  let rule: LimitRule | null = null;
  let retryAt = t;
  // The store has set this to the tickets it holds with a lease running (see TicketLedger).
  const inFlight = src[so + 1]!;
  // INVARIANT: at most `concurrency.limit` (100) requests of an identity are in flight.
  if (inFlight >= sec.concurrency.limit) {
    rule = 'concurrency';
    retryAt = t + CONCURRENCY_RETRY_MS;
  }
  const pw = sec.points.windowMs;
  const rest = refillSpent(src[so + 2]!, sec.points.rest, elapsed);
  const gql = refillSpent(src[so + 3]!, sec.points.graphql, elapsed);
  const pointsCap = e.graphql ? sec.points.graphql : sec.points.rest;
  const points = e.graphql ? gql : rest;
  const pointsRule = e.graphql ? 'graphql_points' : 'rest_points';
  const pointsStrict = modes[pointsRule] === 'strict';
  const pointsWait = pointsStrict
    ? strictWaitMs(strict!, sto + strictBase(pointsRule), t, pw, e.cost, pointsCap)
    : bucketWaitMs(points, e.cost, pointsCap, pw);
  if (pointsWait > 0) {
    rule ??= pointsRule;
    retryAt = Math.max(retryAt, t + pointsWait);
  }
  const cw = sec.cpu.windowMs;
  const cpu = refillSpent(src[so + 4]!, sec.cpu.totalMs, elapsed);
  const gqlCpu = refillSpent(src[so + 5]!, sec.cpu.graphqlMs, elapsed);
  const cpuWait = debtWaitMs(cpu, sec.cpu.totalMs, cw);
  if (cpuWait > 0) {
    rule ??= 'cpu';
    retryAt = Math.max(retryAt, t + cpuWait);
  }
  if (e.graphql) {
    const gqlWait = debtWaitMs(gqlCpu, sec.cpu.graphqlMs, cw);
    if (gqlWait > 0) {
      rule ??= 'graphql_cpu';
      retryAt = Math.max(retryAt, t + gqlWait);
    }
  }
  const perMinute = sec.content.perMinute;
  const perHour = sec.content.perHour;
  const minute = refillSpent(src[so + 6]!, perMinute, elapsed);
  const hour = refillSpent(src[so + 7]!, perHour, elapsed);
  const minuteStrict = modes.content_per_minute === 'strict';
  const hourStrict = modes.content_per_hour === 'strict';
  if (e.content) {
    const minuteWait = minuteStrict
      ? strictWaitMs(strict!, sto + strictBase('content_per_minute'), t, MINUTE, 1, perMinute)
      : bucketWaitMs(minute, 1, perMinute, MINUTE);
    if (minuteWait > 0) {
      rule ??= 'content_per_minute';
      retryAt = Math.max(retryAt, t + minuteWait);
    }
    const hourWait = hourStrict
      ? strictWaitMs(strict!, sto + strictBase('content_per_hour'), t, HOUR, 1, perHour)
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
  dst[dso] = t;
  dst[dso + 1] = inFlight + 1;
  // A strict rule counts in its sub-windows; its bucket number stays as it was.
  if (pointsStrict) strictCharge(strict!, sto + strictBase(pointsRule), t, pw, e.cost);
  dst[dso + 2] = e.graphql || pointsStrict ? rest : rest + e.cost * pw;
  dst[dso + 3] = !e.graphql || pointsStrict ? gql : gql + e.cost * pw;
  dst[dso + 4] = cpu;
  dst[dso + 5] = gqlCpu;
  if (e.content && minuteStrict) strictCharge(strict!, sto + strictBase('content_per_minute'), t, MINUTE, 1);
  if (e.content && hourStrict) strictCharge(strict!, sto + strictBase('content_per_hour'), t, HOUR, 1);
  dst[dso + 6] = e.content && !minuteStrict ? minute + MINUTE : minute;
  dst[dso + 7] = e.content && !hourStrict ? hour + HOUR : hour;
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

function finish(
  src: ArrayLike<number>,
  so: number,
  e: CompleteEvent | ReleaseEvent,
  t: number,
  config: LimitsConfig,
  dst: StateRow,
  dso: number,
): Verdict {
  const sec = config.secondary;
  const ticket = e.ticket;
  const elapsed = t - src[so]!;
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
  const inFlight = src[so + 1]! <= 0 ? 0 : src[so + 1]! - 1;
  // One request's charge is clamped to the rule's capacity, so the worst debt one completion can
  // leave recovers within one window: a mismeasured `cpuMs` (1e12, about 21 years) must not lock
  // an identity out for longer than the rule's own window. (NaN charges nothing; the limiter
  // rejects non-finite and negative values before they get here.)
  const cpuMs = e.cpuMs > 0 ? Math.ceil(e.cpuMs) : 0;
  const cw = sec.cpu.windowMs;
  const rest = refillSpent(src[so + 2]!, sec.points.rest, elapsed);
  const gql = refillSpent(src[so + 3]!, sec.points.graphql, elapsed);
  // INVARIANT: CPU debt never exceeds one window's capacity, so an identity is refused for CPU at
  // most one window after its last completion, however many requests were in flight.
  const cpu = Math.min(
    refillSpent(src[so + 4]!, sec.cpu.totalMs, elapsed) + Math.min(cpuMs, sec.cpu.totalMs) * cw,
    2 * sec.cpu.totalMs * cw,
  );
  const gqlCpu = Math.min(
    refillSpent(src[so + 5]!, sec.cpu.graphqlMs, elapsed) +
      (ticket.graphql ? Math.min(cpuMs, sec.cpu.graphqlMs) * cw : 0),
    2 * sec.cpu.graphqlMs * cw,
  );
  const minute = refillSpent(src[so + 6]!, sec.content.perMinute, elapsed);
  const hour = refillSpent(src[so + 7]!, sec.content.perHour, elapsed);
  if (dst !== src || dso !== so) copyRow(src, so, dst, dso);
  dst[dso] = t;
  dst[dso + 1] = inFlight;
  dst[dso + 2] = rest;
  dst[dso + 3] = gql;
  dst[dso + 4] = cpu;
  dst[dso + 5] = gqlCpu;
  dst[dso + 6] = minute;
  dst[dso + 7] = hour;
  dst[dso + ws + 1] = used;
  const windowMs = resourceWindowMs(ticket.resource, config);
  const reset = currentReset(storedReset, t, windowMs);
  return allowedVerdict(
    ticket.resource,
    ticket.limit,
    windowUsed(storedReset, used, t, windowMs),
    reset,
    null,
    config,
  );
}

/**
 * The answer to completing or releasing a ticket the store does not hold (a copy, a forgery, one
 * already settled, one whose lease ran out): the identity's current numbers, and no change.
 * @example
 * import { AdmissionTicket, defaultLimits, STATE_WIDTH, unheldVerdict } from 'tollgate/limits';
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
  const t = effectiveTime(now, src[so]!);
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

function copyRow(src: ArrayLike<number>, so: number, dst: StateRow, dso: number): void {
  for (let i = 8; i < 16; i++) dst[dso + i] = src[so + i]!;
}

/** The pure transition of the limits: `step(state, event, now, config) -> { state, verdict }`. */
// Hot path: one call per admission and one per completion; bench/limits.mjs guards its speed.
import { allowedVerdict, deniedVerdict } from './answers.js';
import { currentReset, windowUsed } from './fixed-window.js';
import { EMPTY_IDENTITY_STATE, type IdentityState } from './identity-state.js';
import type { AdmitEvent, CompleteEvent, LimitEvent, ReleaseEvent } from './limit-event.js';
import type { LimitRule, LimitsConfig, LimitsResource } from './limits-config.js';
import { resourceWindowMs } from './primary-limit.js';
import { bucketFits, bucketWaitMs, debtWaitMs, refillSpent } from './token-bucket.js';
import type { StepResult } from './verdict.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** tollgate's choice (the seed is silent): a full concurrency rule asks to retry after 1 s. */
const CONCURRENCY_RETRY_MS = 1000;

function windowOf(s: IdentityState, resource: LimitsResource): readonly [reset: number, used: number] {
  switch (resource) {
    case 'core':
      return [s.coreReset, s.coreUsed];
    case 'search':
      return [s.searchReset, s.searchUsed];
    case 'graphql':
      return [s.graphqlReset, s.graphqlUsed];
    case 'lfs':
      return [s.lfsReset, s.lfsUsed];
  }
}

/** `s` refilled to `t`, with `resource`'s window replaced and the given fields overridden. */
function next(
  s: IdentityState,
  t: number,
  config: LimitsConfig,
  resource: LimitsResource,
  reset: number,
  used: number,
  inFlight: number,
  points: number,
  cpuMs: number,
  graphql: boolean,
  content: boolean,
): IdentityState {
  const sec = config.secondary;
  const elapsed = t - s.at;
  const pw = sec.points.windowMs;
  const cw = sec.cpu.windowMs;
  return {
    at: t,
    inFlight,
    restPoints: refillSpent(s.restPoints, sec.points.rest, elapsed) + (graphql ? 0 : points * pw),
    graphqlPoints: refillSpent(s.graphqlPoints, sec.points.graphql, elapsed) + (graphql ? points * pw : 0),
    cpu: refillSpent(s.cpu, sec.cpu.totalMs, elapsed) + cpuMs * cw,
    graphqlCpu: refillSpent(s.graphqlCpu, sec.cpu.graphqlMs, elapsed) + (graphql ? cpuMs * cw : 0),
    contentMinute: refillSpent(s.contentMinute, sec.content.perMinute, elapsed) + (content ? MINUTE : 0),
    contentHour: refillSpent(s.contentHour, sec.content.perHour, elapsed) + (content ? HOUR : 0),
    coreReset: resource === 'core' ? reset : s.coreReset,
    coreUsed: resource === 'core' ? used : s.coreUsed,
    searchReset: resource === 'search' ? reset : s.searchReset,
    searchUsed: resource === 'search' ? used : s.searchUsed,
    graphqlReset: resource === 'graphql' ? reset : s.graphqlReset,
    graphqlUsed: resource === 'graphql' ? used : s.graphqlUsed,
    lfsReset: resource === 'lfs' ? reset : s.lfsReset,
    lfsUsed: resource === 'lfs' ? used : s.lfsUsed,
  };
}

function admit(s: IdentityState, e: AdmitEvent, t: number, config: LimitsConfig): StepResult {
  const sec = config.secondary;
  const elapsed = t - s.at;
  const [storedReset, storedUsed] = windowOf(s, e.resource);
  const reset = currentReset(storedReset, t, resourceWindowMs(e.resource, config));
  const used = windowUsed(storedReset, storedUsed, t);

  // seed 000, "Errors": primary first, so a caller out of requests learns x-ratelimit-remaining 0.
  if (e.countsPrimary && used >= e.limit) {
    return {
      state: s,
      verdict: deniedVerdict('primary', e.key, e.resource, e.limit, used, reset, reset, t, config),
    };
  }
  // Secondary rules: the first that denies names the verdict, the latest free-up time among all
  // that deny becomes retry-after, so a client that waits it out is not refused by another one.
  let rule: LimitRule | null = null;
  let retryAt = t;
  const inFlight = elapsed >= sec.concurrency.leaseMs ? 0 : s.inFlight;
  // INVARIANT: at most `concurrency.limit` (100) requests of an identity are in flight.
  if (inFlight >= sec.concurrency.limit) {
    rule = 'concurrency';
    retryAt = t + CONCURRENCY_RETRY_MS;
  }
  const pw = sec.points.windowMs;
  const pointsCap = e.graphql ? sec.points.graphql : sec.points.rest;
  const points = refillSpent(e.graphql ? s.graphqlPoints : s.restPoints, pointsCap, elapsed);
  if (!bucketFits(points, e.cost, pointsCap, pw)) {
    rule ??= e.graphql ? 'graphql_points' : 'rest_points';
    retryAt = Math.max(retryAt, t + bucketWaitMs(points, e.cost, pointsCap, pw));
  }
  const cw = sec.cpu.windowMs;
  const cpu = refillSpent(s.cpu, sec.cpu.totalMs, elapsed);
  const cpuWait = debtWaitMs(cpu, sec.cpu.totalMs, cw);
  if (cpuWait > 0) {
    rule ??= 'cpu';
    retryAt = Math.max(retryAt, t + cpuWait);
  }
  if (e.graphql) {
    const gqlWait = debtWaitMs(refillSpent(s.graphqlCpu, sec.cpu.graphqlMs, elapsed), sec.cpu.graphqlMs, cw);
    if (gqlWait > 0) {
      rule ??= 'graphql_cpu';
      retryAt = Math.max(retryAt, t + gqlWait);
    }
  }
  if (e.content) {
    const perMinute = sec.content.perMinute;
    const minute = refillSpent(s.contentMinute, perMinute, elapsed);
    if (!bucketFits(minute, 1, perMinute, MINUTE)) {
      rule ??= 'content_per_minute';
      retryAt = Math.max(retryAt, t + bucketWaitMs(minute, 1, perMinute, MINUTE));
    }
    const perHour = sec.content.perHour;
    const hour = refillSpent(s.contentHour, perHour, elapsed);
    if (!bucketFits(hour, 1, perHour, HOUR)) {
      rule ??= 'content_per_hour';
      retryAt = Math.max(retryAt, t + bucketWaitMs(hour, 1, perHour, HOUR));
    }
  }
  if (rule !== null) {
    // INVARIANT: a denied request changes no state (all or nothing).
    return {
      state: s,
      verdict: deniedVerdict(rule, e.key, e.resource, e.limit, used, reset, retryAt, t, config),
    };
  }
  // `GET /rate_limit` neither counts nor opens a window (seed 000, "Rate limit status").
  const counted = e.countsPrimary;
  const newUsed = counted ? used + 1 : used;
  const state = next(
    s,
    t,
    config,
    e.resource,
    counted ? reset : storedReset,
    counted ? newUsed : storedUsed,
    inFlight + 1,
    e.cost,
    0,
    e.graphql,
    e.content,
  );
  const ticket = {
    key: e.key,
    resource: e.resource,
    graphql: e.graphql,
    limit: e.limit,
    countedReset: counted ? reset : 0,
  };
  return { state, verdict: allowedVerdict(e.resource, e.limit, newUsed, reset, ticket, config) };
}

function finish(
  s: IdentityState,
  e: CompleteEvent | ReleaseEvent,
  t: number,
  config: LimitsConfig,
): StepResult {
  const ticket = e.ticket;
  const [storedReset, storedUsed] = windowOf(s, ticket.resource);
  // seed 000, "Polling rules", rule 2: "a 304 does not consume rate limit": refund the count, but
  // only in the window that counted it (a new window never counted it).
  const refund =
    e.kind === 'complete' &&
    e.status === 304 &&
    ticket.countedReset !== 0 &&
    ticket.countedReset === storedReset &&
    storedUsed > 0;
  const used = refund ? storedUsed - 1 : storedUsed;
  const inFlight = t - s.at >= config.secondary.concurrency.leaseMs || s.inFlight === 0 ? 0 : s.inFlight - 1;
  const cpuMs = e.cpuMs > 0 ? Math.ceil(e.cpuMs) : 0;
  const state = next(
    s,
    t,
    config,
    ticket.resource,
    storedReset,
    used,
    inFlight,
    0,
    cpuMs,
    ticket.graphql,
    false,
  );
  const reset = currentReset(storedReset, t, resourceWindowMs(ticket.resource, config));
  return {
    state,
    verdict: allowedVerdict(
      ticket.resource,
      ticket.limit,
      windowUsed(storedReset, used, t),
      reset,
      null,
      config,
    ),
  };
}

/**
 * The pure transition of the limits. No clock, no I/O, no randomness: time is `now` (epoch ms).
 * `admit` checks every rule and charges all of them or none; `complete` frees the in-flight slot,
 * charges CPU time and refunds a 304; `release` frees the slot of an aborted request. A `now`
 * older than the identity's last event counts as that event's time (clocks of several servers).
 * @example
 * import { step, EMPTY_IDENTITY_STATE } from 'tollgate';
 * const { state, verdict } = step(EMPTY_IDENTITY_STATE, { kind: 'admit', key: 'user:octocat', resource: 'core',
 *   limit: 5000, cost: 1, content: false, graphql: false, countsPrimary: true }, Date.now(), config);
 * verdict.headers['x-ratelimit-remaining']; // '4999'
 */
export function step(
  state: IdentityState | undefined,
  event: LimitEvent,
  now: number,
  config: LimitsConfig,
): StepResult {
  const s = state ?? EMPTY_IDENTITY_STATE;
  const t = Math.max(now, s.at);
  return event.kind === 'admit' ? admit(s, event, t, config) : finish(s, event, t, config);
}

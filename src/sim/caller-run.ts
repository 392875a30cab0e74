/** What the engine keeps per caller and per worker while a run goes. */

import type { LimitsResource } from '../core/limit-charge.js';
import type { LimitsIdentity } from '../limits/identity.js';
import type { Ticket } from '../limits/limit-event.js';
import type { LimitRule } from '../limits/limits-config.js';
import type { Verdict } from '../limits/verdict.js';
import type { Random } from './random.js';
import type { IdentityTrack, RefusalMemo } from './refusal-memo.js';
import type { CallerSpec } from './scenario.js';
import type { GaugeRecorder, SeriesRecorder } from './series-recorder.js';
import type { SimRequest } from './sim-request.js';
import type { CallerGrant } from './simulation-report.js';

/**
 * One worker: a loop that sends a request, waits for its answer, and sends the next. It is its own
 * event in the engine's queue (it waits for one thing at a time): `next` says which, and the
 * fields below carry what that event needs, so no event object is made per request.
 */
export interface Worker {
  next: 'send' | 'answer' | 'complete';
  /** When the worker is due, and its place among workers due then (see WorkerAgenda). */
  at: number;
  seq: number;
  /** The refusal whose answer is awaited (`answer`). */
  verdict: Verdict | null;
  /** The admission to settle, the CPU it cost and the status answered (`complete`). */
  ticket: Ticket | null;
  cpuMs: number;
  status: number;
  readonly caller: number;
  /** The request being tried (retries keep it), or null between requests. */
  request: SimRequest | null;
  /** Its index in the caller's requests (and memos). */
  pick: number;
  /** Failures of the current request so far. */
  attempt: number;
  /** When this worker last started a request, for pacing. */
  lastStart: number;
  /** The current attempt has taken its turn in the client's spacing (octokit). */
  spaced: boolean;
}

/** A rule's tally and the caller's gauges of that rule (of the refused resource, for the primary one). */
export interface RefusalTarget {
  readonly rule: LimitRule;
  readonly resource: LimitsResource;
  readonly tally: RuleTally;
  readonly gauges: readonly GaugeRecorder[];
}

/** Per rule that refused: refusals, time limited (ms, as a union of waits) and the first refusal. */
export interface RuleTally {
  denied: number;
  limitedMs: number;
  limitedUntil: number;
  firstRefusalAt: number | null;
}

/** A caller's running state. Times are epoch ms of the virtual clock. */
export interface CallerRun {
  readonly spec: CallerSpec;
  readonly identity: LimitsIdentity;
  readonly requests: readonly SimRequest[];
  readonly cumulative: readonly number[];
  /** Per request, its last refusal while the store would repeat it (see refusal-memo.ts). */
  readonly memos: readonly RefusalMemo[];
  /** The caller's identity as the engine tracks it: shared by every caller of that identity. */
  readonly track: IdentityTrack;
  /** ms between two starts of one worker at the offered rate (0: as fast as answers come). */
  readonly intervalMs: number;
  readonly random: Random;
  readonly series: SeriesRecorder;
  /** The series' primary gauge of each resource the mix uses. */
  readonly primaryGauges: Partial<Record<LimitsResource, GaugeRecorder>>;
  readonly grant: CallerGrant;
  sent: number;
  admitted: number;
  completed: number;
  abandoned: number;
  policyDenied: number;
  /** Of those, the ones refused because the seeds do not show what the endpoint needs (`requirement_not_shown`). */
  policyUnshown: number;
  /** Requests picked and not yet completed or given up: with `completed`, never beyond `work`. */
  outstanding: number;
  sentWhileLimited: number;
  /** The union of every refusal's wait: how long the caller was limited in all. */
  limitedUntil: number;
  limitedMs: number;
  /** Until when the answers the caller has had say it is limited. */
  toldUntil: number;
  /** Until when a client that heeds answers holds every worker back (polite, octokit). */
  heldUntil: number;
  /** Octokit's spacing: the next time a write, a notification write or a search may start. */
  readonly nextAt: { write: number; notification: number; search: number };
  inFlight: number;
  /** Requests sent and not yet answered (admitted or refused): octokit's cap counts them. */
  pending: number;
  /** Workers waiting for a request of the caller to complete (octokit's cap). */
  readonly waiting: Worker[];
  workDoneAt: number | null;
  /** Virtual time of the next gauge sample: gauges read the store a bounded number of times per bucket. */
  nextSampleAt: number;
  readonly rules: Partial<Record<LimitRule, RuleTally>>;
  /** Where the last refusal was counted (see refusalTarget). */
  lastRefusal: RefusalTarget | null;
}

/**
 * A worker of caller `caller` that last started a request at `lastStart`, about to send.
 * @example
 * import { newWorker } from './caller-run.js';
 * newWorker(0, 0).next; // 'send'
 */
export function newWorker(caller: number, lastStart: number): Worker {
  return {
    next: 'send',
    at: 0,
    seq: 0,
    verdict: null,
    ticket: null,
    cpuMs: 0,
    status: 0,
    caller,
    request: null,
    pick: -1,
    attempt: 0,
    lastStart,
    spaced: false,
  };
}

/**
 * The index of the caller's next request, drawn from its mix by weight.
 * @example
 * // pickRequest(run) -> an index of run.requests, each with its mix weight's share
 */
export function pickRequest(run: CallerRun): number {
  const draw = run.random();
  const cumulative = run.cumulative;
  for (let i = 0; i < cumulative.length; i++) if (draw < cumulative[i]!) return i;
  return run.requests.length - 1;
}

/**
 * True when the caller must not start another request: its work is done or taken by requests
 * under way (so `admitted` never exceeds `work`).
 * @example
 * // workTaken(run) -> true once completed + outstanding reaches spec.work
 */
export function workTaken(run: CallerRun): boolean {
  return run.spec.work !== undefined && run.completed + run.policyDenied + run.outstanding >= run.spec.work;
}

/**
 * Adds the wait `[from, until)` to a running union (`limitedUntil`, `limitedMs`).
 * @example
 * import { addWait } from './caller-run.js';
 * const tally = { limitedUntil: 0, limitedMs: 0 };
 * addWait(tally, 0, 1000);
 * addWait(tally, 500, 1500);
 * tally.limitedMs; // 1500
 */
export function addWait(
  tally: { limitedUntil: number; limitedMs: number },
  from: number,
  until: number,
): void {
  if (until <= tally.limitedUntil) return;
  tally.limitedMs += until - Math.max(from, tally.limitedUntil);
  tally.limitedUntil = until;
}

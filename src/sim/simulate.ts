/** The discrete-event engine: callers against the very limiter and store the middleware runs, in virtual time. */
import { createLimiter, createMemoryStore, limitedResponse, retryDelay } from '../index.js';
import {
  defaultLimits,
  type LimitRule,
  type LimitsConfig,
  type LimitsIdentity,
  pollInterval,
  type Ticket,
  withWindowModes,
} from '../limits/index.js';
import { type EndpointEntry, type PolicyTables, shippedTables } from '../policy/index.js';
import { createEventQueue } from './event-queue.js';
import { type Random, sample, seededRandom } from './random.js';
import type { CallerSpec, Scenario } from './scenario.js';

/** What one caller did and met. Times in virtual seconds from the start. */
export interface CallerReport {
  readonly name: string;
  readonly kind: string;
  readonly behaviour: string;
  /** Requests sent, retries included. */
  readonly sent: number;
  readonly admitted: number;
  readonly completed: number;
  /** Refusals by the rule that refused. */
  readonly denied: Readonly<Partial<Record<LimitRule, number>>>;
  /** Requests given up after the client rules said to stop retrying. */
  readonly abandoned: number;
  /** Requests sent while an earlier answer had said to wait: the seed warns these can get an integration banned. */
  readonly sentWhileLimited: number;
  /** Virtual seconds during which some answer had told the caller to wait. */
  readonly limitedSeconds: number;
  /** When the caller's `work` was done; null without work, or when it was not done in time. */
  readonly workDoneAt: number | null;
  /** Per virtual minute: admitted, denied, the most requests in flight, and the primary remaining at its end. */
  readonly perMinute: {
    readonly admitted: number[];
    readonly denied: number[];
    readonly inFlight: number[];
    readonly remaining: (number | null)[];
  };
}

export interface SimulationReport {
  readonly seed: number;
  /** Virtual seconds simulated. */
  readonly seconds: number;
  readonly callers: readonly CallerReport[];
  /** Refusals by rule, all callers together. */
  readonly limits: Readonly<Partial<Record<LimitRule, number>>>;
  /** Requests simulated (sent), for the bench. */
  readonly requests: number;
}

export interface SimulateOptions {
  /** Called now and then with the share of the run done (0 to 1), for a progress bar. */
  readonly onProgress?: (done: number) => void;
}

interface Worker {
  readonly caller: number;
  /** The endpoint of the request being tried (retries keep it), or null between requests. */
  entry: EndpointEntry | null;
  /** Failures of the current request so far. */
  attempt: number;
  /** When this worker last started a request, for pacing. */
  lastStart: number;
}

interface CallerRun {
  readonly spec: CallerSpec;
  readonly identity: LimitsIdentity;
  readonly entries: readonly EndpointEntry[];
  readonly cumulative: readonly number[];
  readonly intervalMs: number;
  readonly random: Random;
  sent: number;
  admitted: number;
  completed: number;
  abandoned: number;
  sentWhileLimited: number;
  limitedUntil: number;
  /** From when (the refusal's answer) until when the caller has been told it is limited. */
  toldFrom: number;
  toldUntil: number;
  /** From when (an answer) until when a client that heeds answers holds every worker back (polite, octokit). */
  heldFrom: number;
  heldUntil: number;
  /** Octokit spaces a client's writes a second apart, all workers together. */
  nextWriteAt: number;
  limitedMs: number;
  inFlight: number;
  workDoneAt: number | null;
  readonly denied: Partial<Record<LimitRule, number>>;
  readonly perMinute: CallerReport['perMinute'];
}

type Event =
  | { readonly type: 'send'; readonly worker: Worker }
  | { readonly type: 'complete'; readonly worker: Worker; readonly ticket: Ticket; readonly cpuMs: number };

const DEFAULT_START = Date.UTC(2026, 0, 1);
const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

function minuteOf(at: number, start: number): number {
  return Math.floor((at - start) / 60_000);
}

function bump(series: number[], minute: number, by = 1): void {
  while (series.length <= minute) series.push(0);
  series[minute]! += by;
}

/**
 * Runs `scenario` to its end (its duration, or every caller's work done) and reports per caller
 * and per limit. Deterministic: the same scenario and seed give the same report. The limiter and
 * the memory store are the production ones, on a virtual clock.
 * @example
 * import { simulate } from './simulate.js';
 * const report = simulate({
 *   seed: 1,
 *   durationSeconds: 3600,
 *   callers: [{ name: 'scraper', token: { kind: 'anonymous', ip: '198.51.100.7' }, behaviour: 'greedy', mix: [{ endpoint: 'GET /rate_limit', weight: 0 }, { endpoint: 'GET /repos/{owner}/{repo}/issues/events', weight: 1 }] }],
 * });
 * report.callers[0]?.admitted; // 60
 */
export function simulate(
  scenario: Scenario,
  tables: PolicyTables = shippedTables(),
  limits: LimitsConfig = defaultLimits(),
  options: SimulateOptions = {},
): SimulationReport {
  const start = scenario.start ?? DEFAULT_START;
  const end =
    scenario.durationSeconds === undefined
      ? Number.POSITIVE_INFINITY
      : start + scenario.durationSeconds * 1000;
  let now = start;
  const config = scenario.windowModes === undefined ? limits : withWindowModes(limits, scenario.windowModes);
  const limiter = createLimiter({ clock: () => now, store: createMemoryStore(), config });
  const byKey = new Map(tables.endpoints.map((entry) => [entry.key, entry]));
  const root = seededRandom(scenario.seed);
  const queue = createEventQueue<Event>();
  const limitsSeen: Partial<Record<LimitRule, number>> = {};
  let requests = 0;

  const runs: CallerRun[] = scenario.callers.map((spec) => {
    const weighted = spec.mix.filter((item) => item.weight > 0);
    const entries = weighted.map((item) => byKey.get(item.endpoint)!);
    const total = weighted.reduce((sum, item) => sum + item.weight, 0);
    let running = 0;
    const cumulative = weighted.map((item) => (running += item.weight / total));
    const workers = spec.workers ?? 1;
    return {
      spec,
      identity: limiter.identify(spec.token),
      entries,
      cumulative,
      intervalMs: spec.rate === undefined ? 0 : (workers * 1000) / spec.rate,
      random: seededRandom(Math.floor(root() * 2 ** 32)),
      sent: 0,
      admitted: 0,
      completed: 0,
      abandoned: 0,
      sentWhileLimited: 0,
      limitedUntil: start,
      toldFrom: start,
      toldUntil: start,
      heldFrom: start,
      heldUntil: start,
      nextWriteAt: start,
      limitedMs: 0,
      inFlight: 0,
      workDoneAt: null,
      denied: {},
      perMinute: { admitted: [], denied: [], inFlight: [], remaining: [] },
    };
  });
  runs.forEach((run, caller) => {
    for (let w = 0; w < (run.spec.workers ?? 1); w++)
      queue.push(start, {
        type: 'send',
        worker: { caller, entry: null, attempt: 0, lastStart: start - run.intervalMs },
      });
  });

  const pick = (run: CallerRun): EndpointEntry => {
    const draw = run.random();
    for (let i = 0; i < run.cumulative.length; i++) if (draw < run.cumulative[i]!) return run.entries[i]!;
    return run.entries[run.entries.length - 1]!;
  };
  const done = (run: CallerRun) => run.spec.work !== undefined && run.completed >= run.spec.work;
  // The next request of a worker: paced by the offered rate, octokit's writes a second apart.
  const pollMs = pollInterval(0, config) * 1000;
  const nextStart = (run: CallerRun, worker: Worker, at: number): number => {
    const interval = run.spec.poll === undefined ? run.intervalMs : Math.max(run.intervalMs, pollMs);
    return Math.max(at, worker.lastStart + interval);
  };
  const limitedFor = (run: CallerRun, from: number, freedAt: number) => {
    const until = Math.min(freedAt, end);
    if (until <= run.limitedUntil) return;
    run.limitedMs += until - Math.max(from, run.limitedUntil);
    run.limitedUntil = until;
  };

  function send(worker: Worker): void {
    const run = runs[worker.caller]!;
    if (now >= end || done(run)) return;
    const fixedRate = run.spec.behaviour === 'fixed-rate';
    // A fixed-rate client sends on its schedule, whatever the answers: its next request is due now.
    if (fixedRate)
      queue.push(Math.max(now + 1, now + run.intervalMs), {
        type: 'send',
        worker: { ...worker, entry: null, attempt: 0 },
      });
    // A client that heeds answers shares what one worker was told with all of them, once told.
    if (now >= run.heldFrom && now < run.heldUntil && run.spec.behaviour !== 'greedy') {
      queue.push(run.heldUntil, { type: 'send', worker });
      return;
    }
    const entry = worker.entry ?? pick(run);
    worker.entry = entry;
    if (run.spec.behaviour === 'octokit' && WRITES.has(entry.method)) {
      if (now < run.nextWriteAt) {
        queue.push(run.nextWriteAt, { type: 'send', worker });
        return;
      }
      run.nextWriteAt = now + 1000;
    }
    if (worker.attempt === 0) worker.lastStart = now;
    run.sent++;
    requests++;
    if (now >= run.toldFrom && now < run.toldUntil) run.sentWhileLimited++;
    const verdict = limiter.admit({
      identity: run.identity,
      method: entry.method,
      ...entry.charge,
    });
    const minute = minuteOf(now, start);
    const remaining = verdict.remaining;
    const series = run.perMinute;
    while (series.remaining.length <= minute) series.remaining.push(null);
    series.remaining[minute] = remaining;
    const latency = sample(run.spec.latencyMs ?? 50, run.random);
    if (verdict.ticket !== null) {
      run.admitted++;
      run.inFlight++;
      bump(series.admitted, minute);
      while (series.inFlight.length <= minute) series.inFlight.push(0);
      series.inFlight[minute] = Math.max(series.inFlight[minute]!, run.inFlight);
      const cpuMs = sample(run.spec.cpuMs ?? 5, run.random);
      queue.push(now + Math.max(1, latency), { type: 'complete', worker, ticket: verdict.ticket, cpuMs });
      return;
    }
    const rule = verdict.rule ?? 'primary';
    run.denied[rule] = (run.denied[rule] ?? 0) + 1;
    limitsSeen[rule] = (limitsSeen[rule] ?? 0) + 1;
    bump(series.denied, minute);
    const freedAt = verdict.retryAt ?? verdict.reset * 1000;
    limitedFor(run, now, freedAt);
    // The caller knows it is limited once the answer arrives, not before.
    const answeredAt = now + Math.max(1, latency);
    if (now >= run.toldUntil) run.toldFrom = answeredAt;
    run.toldUntil = Math.max(run.toldUntil, freedAt);
    if (fixedRate) return;
    worker.attempt++;
    // A greedy client reads nothing of the answer: it retries as soon as it has one.
    if (run.spec.behaviour === 'greedy') {
      queue.push(answeredAt, { type: 'send', worker });
      return;
    }
    const limited = limitedResponse(verdict)!;
    const response = { status: limited.status, headers: limited.headers, body: verdict.body };
    let wait: number | null;
    if (run.spec.behaviour === 'polite') wait = retryDelay(response, worker.attempt, { now: answeredAt });
    else {
      // Octokit's throttling plugin: retry once, after the reset (plus a second) or the retry-after.
      const retryAfter = Number(response.headers['retry-after']);
      wait =
        worker.attempt > 1
          ? null
          : Number.isFinite(retryAfter) && response.headers['retry-after'] !== undefined
            ? retryAfter * 1000
            : Math.max(0, Number(response.headers['x-ratelimit-reset']) * 1000 - answeredAt) + 1000;
    }
    if (wait === null) {
      run.abandoned++;
      worker.entry = null;
      worker.attempt = 0;
      queue.push(nextStart(run, worker, answeredAt), { type: 'send', worker });
      return;
    }
    if (now >= run.heldUntil) run.heldFrom = answeredAt;
    run.heldUntil = Math.max(run.heldUntil, answeredAt + wait);
    queue.push(answeredAt + wait, { type: 'send', worker });
  }

  function complete(event: Extract<Event, { type: 'complete' }>): void {
    const run = runs[event.worker.caller]!;
    // A poll answered 304 (nothing changed since If-Modified-Since) is refunded by the service.
    const unchanged = run.spec.poll !== undefined && run.random() < run.spec.poll.unchanged;
    limiter.complete(event.ticket, { status: unchanged ? 304 : 200, cpuMs: event.cpuMs });
    run.inFlight--;
    run.completed++;
    if (run.spec.work !== undefined && run.completed === run.spec.work) run.workDoneAt = (now - start) / 1000;
    if (run.spec.behaviour === 'fixed-rate') return;
    const worker = event.worker;
    const finished = worker.entry;
    worker.entry = null;
    worker.attempt = 0;
    queue.push(nextStart(run, { ...worker, entry: finished }, now), { type: 'send', worker });
  }

  const totalWork = runs.reduce((sum, run) => sum + (run.spec.work ?? 0), 0);
  let events = 0;
  for (let event = queue.pop(); event !== undefined; event = queue.pop()) {
    if (event.at >= end && event.item.type === 'send') continue;
    now = event.at;
    if (options.onProgress !== undefined && ++events % 65_536 === 0) {
      const completed = runs.reduce((sum, run) => sum + run.completed, 0);
      options.onProgress(
        Number.isFinite(end) ? (now - start) / (end - start) : completed / Math.max(1, totalWork),
      );
    }
    if (event.item.type === 'send') send(event.item.worker);
    else complete(event.item);
  }
  const seconds = Number.isFinite(end) ? (end - start) / 1000 : (now - start) / 1000;
  return {
    seed: scenario.seed,
    seconds,
    callers: runs.map((run) => ({
      name: run.spec.name,
      kind: run.spec.token.kind,
      behaviour: run.spec.behaviour,
      sent: run.sent,
      admitted: run.admitted,
      completed: run.completed,
      denied: run.denied,
      abandoned: run.abandoned,
      sentWhileLimited: run.sentWhileLimited,
      limitedSeconds: Math.min(run.limitedMs, Number.isFinite(end) ? end - start : run.limitedMs) / 1000,
      workDoneAt: run.workDoneAt,
      perMinute: run.perMinute,
    })),
    limits: limitsSeen,
    requests,
  };
}

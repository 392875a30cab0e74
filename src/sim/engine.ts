/** The discrete-event loop: workers send, the limiter answers, behaviours decide what comes next. */
// Hot path of the simulator: `npm run bench` (bench/sim.mjs) guards its speed.

import type { Limiter } from '../limiter/limiter.js';
import { limitedResponse } from '../limits/answers.js';
import type { SyncLimitsStore } from '../limits/limits-store.js';
import type { BehaviourRules } from './behaviour.js';
import { addWait, type CallerRun, newWorker, pickRequest, type Worker, workTaken } from './caller-run.js';
import { sample } from './random.js';
import { keepRefusal, keptRefusal } from './refusal-memo.js';
import { refusalTarget } from './refusal-target.js';
import { markRefused, sampleGauges } from './series-gauges.js';
import { addAt, bucketOf, leastAt, peakAt } from './series-recorder.js';
import { createWorkerAgenda } from './worker-agenda.js';

/** What a behaviour that reads no answer is handed. */
const NOT_READ = { status: 0, headers: {} };

/** What the loop needs: the callers, their behaviours, the limiter on the virtual clock, the span. */
export interface EngineSetup {
  readonly runs: readonly CallerRun[];
  readonly behaviours: readonly BehaviourRules[];
  readonly limiter: Limiter<SyncLimitsStore>;
  readonly clock: { now: number };
  readonly start: number;
  readonly end: number;
  /** ms a poller waits between requests (`X-Poll-Interval` at no load). */
  readonly pollMs: number;
  readonly onProgress?: (done: number) => void;
  /**
   * Reuse a refusal while the store would repeat it (refusal-memo.ts) instead of asking again.
   * Default true; false asks the store for every request (the plain path the memo is tested against).
   */
  readonly memo?: boolean;
}

/** What the loop leaves: requests sent, and the virtual time the last event happened. */
export interface EngineResult {
  readonly requests: number;
  readonly lastAt: number;
}

/**
 * Runs every caller from `start` until `end` or until no caller has anything left to do.
 * @example
 * // runEngine(setup) -> { requests: 72000, lastAt: 1767229200000 }
 */
export function runEngine(setup: EngineSetup): EngineResult {
  const { runs, behaviours, limiter, clock, start, end, pollMs } = setup;
  const memo = setup.memo !== false;
  const concurrencyLimit = limiter.config.secondary.concurrency.limit;
  const queue = createWorkerAgenda<Worker>();
  const schedule = (at: number, worker: Worker, next: Worker['next']) => {
    worker.next = next;
    queue.push(at, worker);
  };
  let requests = 0;

  runs.forEach((run, caller) => {
    const from = Math.max(start, start + (run.spec.startSeconds ?? 0) * 1000);
    for (let w = 0; w < (run.spec.workers ?? 1); w++)
      queue.push(from, newWorker(caller, from - run.intervalMs));
  });
  const stopOf = runs.map((run) =>
    Math.min(
      end,
      run.spec.stopSeconds === undefined ? Number.POSITIVE_INFINITY : start + run.spec.stopSeconds * 1000,
    ),
  );

  const nextStart = (run: CallerRun, worker: Worker, at: number): number => {
    const interval = run.spec.poll === undefined ? run.intervalMs : Math.max(run.intervalMs, pollMs);
    return Math.max(at, worker.lastStart + interval);
  };
  // A worker done with a request (served, refused by the policy, or given up) takes the next.
  const moveOn = (run: CallerRun, worker: Worker, at: number) => {
    run.outstanding--;
    worker.request = null;
    worker.attempt = 0;
    worker.spaced = false;
    if (!behaviours[worker.caller]!.scheduled) schedule(nextStart(run, worker, at), worker, 'send');
  };
  const freeSlot = (run: CallerRun) => {
    run.pending--;
    const waiter = run.waiting.shift();
    if (waiter !== undefined) schedule(clock.now, waiter, 'send');
  };

  function send(worker: Worker): void {
    const run = runs[worker.caller]!;
    const behaviour = behaviours[worker.caller]!;
    const now = clock.now;
    if (now >= stopOf[worker.caller]!) return;
    if (worker.request === null) {
      if (workTaken(run)) return;
      // A fixed-rate client sends on its schedule, whatever the answers: its next request is due then.
      if (behaviour.scheduled)
        queue.push(Math.max(now + 1, now + run.intervalMs), newWorker(worker.caller, now));
      const pick = pickRequest(run);
      worker.pick = pick;
      worker.request = run.requests[pick]!;
      run.outstanding++;
    }
    // A client that heeds answers shares the longest wait it has been told with every worker.
    if (behaviour.sharesHold && now < run.heldUntil) {
      schedule(run.heldUntil, worker, 'send');
      return;
    }
    const readyAt = behaviour.readyAt(run, worker, now);
    if (readyAt > now) {
      if (readyAt === Number.POSITIVE_INFINITY) run.waiting.push(worker);
      else schedule(readyAt, worker, 'send');
      return;
    }
    const request = worker.request;
    // Paced from its last send, a retry's too: a client at a rate keeps its spacing after a wait.
    worker.lastStart = now;
    run.sent++;
    run.pending++;
    requests++;
    if (now < run.toldUntil) run.sentWhileLimited++;
    const track = run.track;
    const kept = memo ? run.memos[worker.pick]! : null;
    // At a gauge sample the store is asked anyway: the sample reads the row the admission just wrote.
    let verdict = kept !== null && now < run.nextSampleAt ? keptRefusal(kept, track, now) : null;
    if (verdict === null) {
      verdict = limiter.admit(request.admit);
      if (verdict.ticket !== null) {
        track.version++;
        track.held++;
      } else if (kept !== null) keepRefusal(kept, verdict, track, now, concurrencyLimit);
    }
    const series = run.series;
    const bucket = bucketOf(series, now);
    const latency = Math.max(1, sample(run.spec.latencyMs ?? 50, run.random));
    if (now >= run.nextSampleAt) sampleGauges(run, limiter, now, bucket);
    // The verdict carries the primary window's remaining: exact at every send, at no cost.
    const primary = run.primaryGauges[verdict.resource];
    if (primary !== undefined) leastAt(primary.remaining, bucket, verdict.remaining);
    if (verdict.ticket !== null) {
      const decision = request.decision;
      // The gate charges a request its policy refuses (countDenied) and answers it at once.
      if (decision !== null && !decision.allowed) {
        run.policyDenied++;
        if (decision.reason === 'requirement_not_shown') run.policyUnshown++;
        addAt(series.denied, bucket, 1);
        worker.ticket = verdict.ticket;
        worker.cpuMs = 0;
        worker.status = decision.status;
        schedule(now + latency, worker, 'complete');
        return;
      }
      run.admitted++;
      run.inFlight++;
      addAt(series.admitted, bucket, 1);
      peakAt(series.inFlight, bucket, run.inFlight);
      const cpuMs = sample(run.spec.cpuMs ?? 5, run.random);
      // A poll answered 304 (nothing changed since If-Modified-Since) is refunded by the service.
      const unchanged = run.spec.poll !== undefined && run.random() < run.spec.poll.unchanged;
      worker.ticket = verdict.ticket;
      worker.cpuMs = cpuMs;
      worker.status = unchanged ? 304 : 200;
      schedule(now + latency, worker, 'complete');
      return;
    }
    addAt(series.denied, bucket, 1);
    const rule = verdict.rule ?? 'primary';
    // Every refusal limits the caller for a while: never "limited for 0 s" beside a refusal.
    const freedAt = Math.max(now + 1, Math.min(verdict.retryAt ?? verdict.reset * 1000, end));
    const target = refusalTarget(run, rule, verdict.resource, start);
    const tally = target.tally;
    tally.denied++;
    if (tally.firstRefusalAt === null) tally.firstRefusalAt = now;
    addWait(tally, now, freedAt);
    addWait(run, now, freedAt);
    markRefused(series, target.gauges, now, freedAt);
    worker.verdict = verdict;
    schedule(now + latency, worker, 'answer');
  }

  // A limited answer reaches the client: only now does it know, and decide.
  function answer(worker: Worker): void {
    const verdict = worker.verdict!;
    worker.verdict = null;
    const run = runs[worker.caller]!;
    const behaviour = behaviours[worker.caller]!;
    const now = clock.now;
    freeSlot(run);
    const freedAt = verdict.retryAt ?? verdict.reset * 1000;
    if (freedAt > run.toldUntil) run.toldUntil = freedAt;
    if (behaviour.scheduled) {
      run.outstanding--;
      return;
    }
    worker.attempt++;
    const limited = behaviour.readsAnswer ? limitedResponse(verdict)! : null;
    const wait = behaviour.retryWait(
      run,
      worker,
      limited === null ? NOT_READ : { status: limited.status, headers: limited.headers, body: verdict.body },
      now,
    );
    if (wait === null) {
      run.abandoned++;
      moveOn(run, worker, now);
      return;
    }
    if (behaviour.sharesHold && now + wait > run.heldUntil) run.heldUntil = now + wait;
    if (wait === 0) send(worker);
    else schedule(now + wait, worker, 'send');
  }

  function complete(worker: Worker): void {
    const run = runs[worker.caller]!;
    const ticket = worker.ticket!;
    worker.ticket = null;
    limiter.complete(ticket, worker.status, worker.cpuMs);
    run.track.version++;
    run.track.held--;
    freeSlot(run);
    if (worker.status < 400) {
      run.inFlight--;
      run.completed++;
    }
    if (
      run.spec.work !== undefined &&
      run.workDoneAt === null &&
      run.completed + run.policyDenied >= run.spec.work
    )
      run.workDoneAt = clock.now;
    if (behaviours[worker.caller]!.scheduled) {
      run.outstanding--;
      return;
    }
    moveOn(run, worker, clock.now);
  }

  const totalWork = runs.reduce((sum, run) => sum + (run.spec.work ?? 0), 0);
  let events = 0;
  for (let worker = queue.pop(); worker !== undefined; worker = queue.pop()) {
    const at = worker.at;
    if (at >= end && worker.next === 'send') continue;
    clock.now = at;
    if (setup.onProgress !== undefined && ++events % 65_536 === 0) {
      const completed = runs.reduce((sum, run) => sum + run.completed, 0);
      setup.onProgress(
        Number.isFinite(end) ? (at - start) / (end - start) : completed / Math.max(1, totalWork),
      );
    }
    if (worker.next === 'send') send(worker);
    else if (worker.next === 'answer') answer(worker);
    else complete(worker);
  }
  return { requests, lastAt: clock.now };
}

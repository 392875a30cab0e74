/** What a client behaviour decides: when a worker may send, and what it does with a limited answer. */
import type { LimitedResponse } from '../limits/retry-delay.js';
import type { CallerRun, Worker } from './caller-run.js';

/**
 * A client's rules. The engine asks `readyAt` before each send and `retryWait` when a limited
 * answer arrives; everything else (the limiter, the clock, the series) is the engine's.
 */
export interface BehaviourRules {
  /** Sends on its own schedule whatever the answers, and never retries (fixed-rate). */
  readonly scheduled: boolean;
  /** Holds every worker of the caller back until the longest wait it has been told runs out. */
  readonly sharesHold: boolean;
  /** Reads the limited answer (its status, headers and body) to decide; false: `retryWait` ignores it. */
  readonly readsAnswer: boolean;
  /**
   * The earliest time the worker may send its request (spacing, a cap on requests in flight);
   * `now` to send now, Infinity to wait for a request of the caller to complete.
   */
  readyAt(run: CallerRun, worker: Worker, now: number): number;
  /** Milliseconds after the answer before retrying, or null to give the request up. */
  retryWait(run: CallerRun, worker: Worker, response: LimitedResponse, answeredAt: number): number | null;
}

/** A refusal the store would give again: kept per caller and request, reused while provably unchanged. */
// Hot path of the simulator: asked before each admission; bench/sim.mjs guards its speed.
import type { Verdict } from '../limits/verdict.js';

/**
 * What the engine knows of an identity's state in the store: `version` moves whenever the state
 * changes (an admission, a completion: a refusal changes nothing, src/limits/step-into.ts), and
 * `held` counts the tickets handed out and not yet completed, an upper bound of what the
 * concurrency rule counts (a ticket whose lease ran out counts for nothing there).
 */
export interface IdentityTrack {
  version: number;
  held: number;
}

/** One request's last refusal, and until when (exclusive, epoch ms) it is the store's answer. */
export interface RefusalMemo {
  verdict: Verdict | null;
  version: number;
  until: number;
}

/**
 * A memo that holds nothing.
 * @example
 * import { emptyMemo } from './refusal-memo.js';
 * emptyMemo().verdict; // null
 */
export function emptyMemo(): RefusalMemo {
  return { verdict: null, version: -1, until: Number.NEGATIVE_INFINITY };
}

/**
 * Keeps `verdict`, a refusal given at `now` to a request of an identity tracked by `track`, for as
 * long as the store would answer the same request with the same verdict. Why that holds:
 * - A refusal changes no state, so while `track.version` stays, the store reads the same row; the
 *   answer can only move with time. With the state fixed, time only lifts refusals: a window rolls,
 *   log entries leave, buckets refill, leases run out; nothing starts refusing that did not.
 * - At the same millisecond, the answer is the same verdict, field for field: kept until the next
 *   whole millisecond. The store reads a clock in whole milliseconds, floored (effective-time.ts),
 *   so a simulated time may be fractional (a latency drawn from a distribution): `now + 1` kept a
 *   refusal at 3,084.9976 ms for a request at 3,085.997, which the store answered at 3,085, when the
 *   bucket had refilled.
 * - A primary refusal (seed 000, "Errors": primary first) keeps `rule`, `used`, `remaining` and
 *   `reset` until the window's reset. Its `retryAt` is the latest free-up time of the rules that
 *   refuse: the reset, or a secondary rule's, and each secondary rule frees at a fixed time while
 *   the state is fixed (`t + wait` is constant: log entries leave at fixed times, a bucket refills at
 *   a fixed rate) - except the concurrency rule's, `t + 1 s`. So it is kept until the reset when the
 *   concurrency rule cannot refuse (`held` below its limit) and no secondary rule outlasts the reset
 *   (`retryAfter` null: otherwise `retry-after` counts down with time).
 * - Any other refusal is kept for the same millisecond only.
 * test/sim/refusal-memo.prop.test.ts runs random scenarios with and without the memo and
 * compares the whole reports.
 * @example
 * // keepRefusal(memo, verdict, track, now, 100) -> memo.until = verdict.reset * 1000 for a primary refusal
 */
export function keepRefusal(
  memo: RefusalMemo,
  verdict: Verdict,
  track: IdentityTrack,
  now: number,
  concurrencyLimit: number,
): void {
  memo.verdict = verdict;
  memo.version = track.version;
  memo.until =
    verdict.rule === 'primary' && verdict.retryAfter === null && track.held < concurrencyLimit
      ? verdict.reset * 1000
      : Math.floor(now) + 1;
}

/**
 * The kept refusal, when it is still the store's answer at `now`; else null.
 * @example
 * import { emptyMemo, keptRefusal } from './refusal-memo.js';
 * keptRefusal(emptyMemo(), { version: 0, held: 0 }, 0); // null
 */
export function keptRefusal(memo: RefusalMemo, track: IdentityTrack, now: number): Verdict | null {
  return memo.version === track.version && now < memo.until ? memo.verdict : null;
}

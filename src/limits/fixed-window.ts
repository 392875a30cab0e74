/** Fixed windows of the primary limits: a count that resets when the window ends. */
// Hot path: called for every request; bench/limits.mjs guards its speed.

/**
 * The end of a window opened at `now`: `windowMs` later, rounded up to a whole second so the
 * `x-ratelimit-reset` header (epoch seconds) is exactly the moment the window ends.
 * @example
 * import { windowEnd } from './fixed-window.js';
 * windowEnd(1_700_000_000_500, 3_600_000); // 1700003601000
 */
export function windowEnd(now: number, windowMs: number): number {
  return Math.ceil((now + windowMs) / 1000) * 1000;
}

/**
 * True while the stored window is open at `now`. A window ending more than one window after
 * `now` was stamped by a clock running ahead: it is over, or an identity could be locked out for
 * as long as that clock was wrong. (A window opened at any time up to `now` ends by
 * windowEnd(now, windowMs).)
 */
function isOpen(reset: number, now: number, windowMs: number): boolean {
  return reset > now && reset <= windowEnd(now, windowMs);
}

/**
 * Requests counted in the window open at `now` (0 once the window ended).
 * @example
 * import { windowUsed } from './fixed-window.js';
 * windowUsed(1_700_003_600_000, 12, 1_700_000_000_000, 3_600_000); // 12
 */
export function windowUsed(reset: number, used: number, now: number, windowMs: number): number {
  return isOpen(reset, now, windowMs) ? used : 0;
}

/**
 * The end of the window open at `now`: the stored one while it lasts, else a new one. A window
 * opens at the first request after the previous one ended, like the service's `x-ratelimit-reset`.
 * @example
 * import { currentReset } from './fixed-window.js';
 * currentReset(0, 1_700_000_000_000, 3_600_000); // 1700003600000
 */
export function currentReset(reset: number, now: number, windowMs: number): number {
  return isOpen(reset, now, windowMs) ? reset : windowEnd(now, windowMs);
}

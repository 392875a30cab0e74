/** The time an event happens at for an identity: bad clock readings can neither corrupt nor freeze its state. */
// Hot path: once per event; bench/limits.mjs guards its speed.

/**
 * How far behind an identity's last event a clock may read and still be taken as that event's
 * time: the skew between servers that share a store. Further behind is a clock that stepped back
 * (or a last event stamped in the future), and the identity's time moves to the new reading.
 */
export const CLOCK_SKEW_TOLERANCE_MS = 1000;

/**
 * The whole-millisecond time of an event at clock reading `now` for an identity whose last event
 * was at `at`:
 * - a non-finite or negative reading (NaN, Infinity, before 1970) is no reading: nothing has
 *   passed since `at`;
 * - a reading up to CLOCK_SKEW_TOLERANCE_MS behind `at` counts as `at` (servers' clocks differ a
 *   little, and time must not run backwards inside a bucket);
 * - a reading further behind is believed: the identity's time moves back to it, its buckets get no
 *   refill for the gap, and refill goes on from there (a stamp from the future never freezes them).
 * @example
 * import { effectiveTime } from './effective-time.js';
 * effectiveTime(NaN, 5_000);      // 5000
 * effectiveTime(4_500.7, 5_000);  // 5000 (within the skew tolerance)
 * effectiveTime(1_000, 3_600_000); // 1000 (the stored time was in the future)
 */
export function effectiveTime(now: number, at: number): number {
  if (!(now >= 0) || now === Number.POSITIVE_INFINITY) return at;
  const reading = Math.floor(now);
  if (reading >= at || at - reading <= CLOCK_SKEW_TOLERANCE_MS) return Math.max(reading, at);
  return reading;
}

/** Token buckets kept as exact integers: what was spent, scaled by the refill window. */
// Hot path: called for every bucket of every request; bench/limits.mjs guards its speed.
//
// A bucket of `capacity` points refilling `capacity` per `windowMs` stores `spent` in point·ms
// (points x windowMs). Refilling `elapsed` ms removes `capacity x elapsed`; charging `cost` points
// adds `cost x windowMs`; the bucket admits `cost` while `spent + cost x windowMs <= capacity x windowMs`.
// Worked example: 900 points per 60,000 ms, 30 points spent 1,000 ms ago:
// spent = 30 x 60,000 = 1,800,000; refill 900 x 1,000 = 900,000 -> 900,000 (15 points).
// Every value stays an integer below 2^53 (largest: 90,000 ms of CPU x 60,000 = 5.4e9), so no
// rounding ever lets a bucket admit more than its guarantee: at most C + C*t/W points in any t ms.

/**
 * What remains spent after `elapsedMs` of refill.
 * @example
 * import { refillSpent } from './token-bucket.js';
 * refillSpent(1_800_000, 900, 1_000); // 900000
 */
export function refillSpent(spent: number, capacity: number, elapsedMs: number): number {
  // INVARIANT: a bucket's spent value stays >= 0 (a bucket never holds more than its capacity).
  if (elapsedMs <= 0) return spent;
  const refill = capacity * elapsedMs;
  return refill >= spent ? 0 : spent - refill;
}

/**
 * True when `cost` points fit in the bucket now.
 * @example
 * import { bucketFits } from './token-bucket.js';
 * bucketFits(0, 900, 900, 60_000); // true
 */
export function bucketFits(spent: number, cost: number, capacity: number, windowMs: number): boolean {
  return spent + cost * windowMs <= capacity * windowMs;
}

/**
 * Milliseconds until `cost` points fit (0 when they fit now).
 * @example
 * import { bucketWaitMs } from './token-bucket.js';
 * bucketWaitMs(900 * 60_000, 1, 900, 60_000); // 67
 */
export function bucketWaitMs(spent: number, cost: number, capacity: number, windowMs: number): number {
  const excess = spent + cost * windowMs - capacity * windowMs;
  return excess <= 0 ? 0 : Math.ceil(excess / capacity);
}

/**
 * Milliseconds until a bucket charged after the fact (CPU time) is out of debt: a request is
 * admitted while `spent < capacity x windowMs`.
 * @example
 * import { debtWaitMs } from './token-bucket.js';
 * debtWaitMs(90_000 * 60_000, 90_000, 60_000); // 1
 */
export function debtWaitMs(spent: number, capacity: number, windowMs: number): number {
  const excess = spent - capacity * windowMs;
  return excess < 0 ? 0 : Math.floor(excess / capacity) + 1;
}

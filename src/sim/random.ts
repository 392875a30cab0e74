/** Seeded randomness for the simulator: the same seed, the same run. */

/** A number in [0, 1), from a seeded generator. */
export type Random = () => number;

/**
 * mulberry32: small, fast, and the same on every machine.
 * @example
 * import { seededRandom } from './random.js';
 * const a = seededRandom(7);
 * const b = seededRandom(7);
 * a() === b(); // true
 */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A duration in ms: a constant, or `{ uniform: [min, max] }`, or `{ exponential: mean }`. */
export type Distribution =
  | number
  | { readonly uniform: readonly [number, number] }
  | { readonly exponential: number };

/**
 * One draw of `distribution`, in whole milliseconds (virtual time moves in milliseconds).
 * @example
 * import { sample, seededRandom } from './random.js';
 * sample(40, seededRandom(1)); // 40
 * sample({ uniform: [10, 20] }, seededRandom(1)) >= 10; // true
 */
export function sample(distribution: Distribution, random: Random): number {
  if (typeof distribution === 'number') return Math.round(distribution);
  if ('uniform' in distribution) {
    const [min, max] = distribution.uniform;
    return Math.round(min + (max - min) * random());
  }
  return Math.round(-distribution.exponential * Math.log(1 - random()));
}

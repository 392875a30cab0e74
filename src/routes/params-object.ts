/** The object that holds a match's parameters: inherits nothing, yet stays a fast (non-dictionary) object. */

const NOTHING_INHERITED: object = Object.freeze(Object.create(null));

// One constructor per parameter count. V8 sizes a constructor's instances by what its first few
// held (slack tracking): instances of a constructor warmed here with exactly `n` fields, before any
// match, keep room for `n` in the object itself. One constructor for every count (room for four)
// left 24 B unused in a one-parameter route's params, 16 B in a two's: over the bench mix (heap
// used per pass, median of 41), ~290-300 -> ~272-276 B per authorize. Routes of more than four
// parameters take the four-field one (a fifth goes into a property array).
const KEYS = ['a', 'b', 'c', 'd'];
const SIZED: (new () => Record<string, string>)[] = KEYS.map((_, n) => {
  const Sized = function ParamsObject() {} as unknown as new () => Record<string, string>;
  Sized.prototype = NOTHING_INHERITED;
  for (let i = 0; i < 8; i++) {
    const warm = new Sized();
    for (let k = 0; k <= n; k++) warm[KEYS[k]!] = '';
  }
  return Sized;
});

/**
 * Path parameters by name. Its prototype is an empty frozen object with a null prototype, so a
 * parameter named `__proto__`, `constructor` or `toString` is an ordinary own key and nothing is
 * inherited; unlike `Object.create(null)`, which V8 keeps in slow dictionary mode, instances that
 * get their keys in the same order share one hidden class (the `null-object` idiom of fastify and
 * find-my-way).
 */
export const ParamsObject = SIZED[3]!;
const ONE = SIZED[0]!;
const TWO = SIZED[1]!;
const THREE = SIZED[2]!;
const FOUR = ParamsObject;

/**
 * A new, empty params object with room for `count` parameters (default four).
 * @example
 * import { newParams } from './params-object.js';
 * const params = newParams(1);
 * params.__proto__ = 'x';
 * Object.keys(params); // ['__proto__']
 * 'toString' in params; // false
 */
export function newParams(count = 4): Record<string, string> {
  // Each `new` names its constructor, so the optimizing compiler allocates inline: `new SIZED[i]()`
  // went through the generic construct stub (~110 instructions per match under callgrind).
  if (count <= 1) return new ONE();
  if (count === 2) return new TWO();
  if (count === 3) return new THREE();
  return new FOUR();
}

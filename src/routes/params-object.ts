/** The object that holds a match's parameters: inherits nothing, yet stays a fast (non-dictionary) object. */

/**
 * Path parameters by name. Its prototype is an empty frozen object with a null prototype, so a
 * parameter named `__proto__`, `constructor` or `toString` is an ordinary own key and nothing is
 * inherited; unlike `Object.create(null)`, which V8 keeps in slow dictionary mode, instances that
 * get their keys in the same order share one hidden class (the `null-object` idiom of fastify and
 * find-my-way).
 */
export const ParamsObject = function ParamsObject() {} as unknown as new () => Record<string, string>;
ParamsObject.prototype = Object.freeze(Object.create(null));

// V8 sizes a constructor's instances by what its first few held (slack tracking): whichever params
// object came first (often a one-parameter route) fixed every later one at one in-object field, so
// the params of two or more parameters (3,352 of the bench mix's 4,280 requests) each took a
// separate property array too: 40 B more per match, and a slower store per parameter. Instances of
// four fields made here, before any match, keep room for four (the table's routes have at most
// five parameters; a fifth goes into a property array as before).
for (let i = 0; i < 8; i++) {
  const warm = new ParamsObject();
  warm.a = '';
  warm.b = '';
  warm.c = '';
  warm.d = '';
}

/**
 * A new, empty params object.
 * @example
 * import { newParams } from './params-object.js';
 * const params = newParams();
 * params.__proto__ = 'x';
 * Object.keys(params); // ['__proto__']
 * 'toString' in params; // false
 */
export function newParams(): Record<string, string> {
  return new ParamsObject();
}

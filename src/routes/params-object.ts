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

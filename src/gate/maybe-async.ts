/** Values that are promises only when they have to be: a synchronous store keeps the gate synchronous. */

/** A value, or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * `next(value)` at once for a plain value, after it settles for a promise. A request whose token
 * lookup and store answer synchronously then costs no microtask turn at all.
 * @example
 * import { after } from './maybe-async.js';
 * after(2, (n) => n + 1); // 3
 * await after(Promise.resolve(2), (n) => n + 1); // 3
 */
export function after<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  // Any thenable (a query builder, a promise from another realm) is awaited, not taken as a value.
  if (isThenable(value)) return Promise.resolve(value).then(next);
  return next(value as T);
}

/**
 * Whether a value is to be awaited (any thenable, as `after` takes it) rather than used as it is.
 * @example
 * import { isThenable } from './maybe-async.js';
 * isThenable(Promise.resolve(1)); // true
 * isThenable({ kind: 'classic' }); // false
 */
export function isThenable<T>(value: MaybePromise<T> | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

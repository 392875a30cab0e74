/** The rules an option can follow, as small values: a factory's option spec is a table of them. */

/**
 * What one option accepts. Each rule says what it expects in words (for the error) and tests a
 * value; `object` rules check their own fields, so a nested option is named by its path
 * (`answers.status`).
 * @example
 * import { oneOf } from './option-rules.js';
 * const rule = oneOf([403, 429]);
 * rule.expected; // 'one of 403, 429'
 */
export type OptionRule =
  | { readonly kind: 'test'; readonly expected: string; readonly test: (value: unknown) => boolean }
  | { readonly kind: 'object'; readonly expected: string; readonly spec: OptionSpec }
  | { readonly kind: 'members'; readonly expected: string; readonly spec: OptionSpec }
  | { readonly kind: 'record'; readonly expected: string; readonly value: OptionRule };

/** A rule marked required: absence (or `undefined`) is a problem too. */
export interface RequiredRule {
  readonly required: true;
  readonly rule: OptionRule;
}

/**
 * A factory's options: name to rule, and groups of names of which at least one must be given.
 * @example
 * import { func, type OptionSpec } from './option-rules.js';
 * const spec: OptionSpec = { fields: { clock: func() } };
 */
export interface OptionSpec {
  readonly fields: Readonly<Record<string, OptionRule | RequiredRule>>;
  /** Each group: give at least one of these names. */
  readonly oneRequired?: readonly (readonly string[])[];
}

const test = (expected: string, check: (value: unknown) => boolean): OptionRule => ({
  kind: 'test',
  expected,
  test: check,
});

/**
 * A function.
 * @example
 * import { func } from './option-rules.js';
 * func().expected; // 'a function'
 */
export const func = (): OptionRule => test('a function', (v) => typeof v === 'function');

/**
 * `true` or `false`.
 * @example
 * import { bool } from './option-rules.js';
 * bool().expected; // 'true or false'
 */
export const bool = (): OptionRule => test('true or false', (v) => typeof v === 'boolean');

/**
 * A string (non-empty unless `allowEmpty`).
 * @example
 * import { text } from './option-rules.js';
 * text().expected; // 'a non-empty string'
 */
export const text = (allowEmpty = false): OptionRule =>
  test(
    allowEmpty ? 'a string' : 'a non-empty string',
    (v) => typeof v === 'string' && (allowEmpty || v !== ''),
  );

/**
 * A finite number in a range; `integer` for whole numbers; `above` for an open lower bound.
 * @example
 * import { number } from './option-rules.js';
 * number({ above: 0, max: 1 }).expected; // 'a number > 0 and <= 1'
 */
export function number(
  range: { min?: number; above?: number; max?: number; integer?: boolean } = {},
): OptionRule {
  const bounds = [
    range.min === undefined ? null : `>= ${range.min}`,
    range.above === undefined ? null : `> ${range.above}`,
    range.max === undefined ? null : `<= ${range.max}`,
  ].filter((b) => b !== null);
  const noun = range.integer ? 'an integer' : 'a number';
  return test(
    bounds.length === 0 ? `a finite ${noun.slice(noun.indexOf(' ') + 1)}` : `${noun} ${bounds.join(' and ')}`,
    (v) =>
      typeof v === 'number' &&
      Number.isFinite(v) &&
      (!range.integer || Number.isInteger(v)) &&
      (range.min === undefined || v >= range.min) &&
      (range.above === undefined || v > range.above) &&
      (range.max === undefined || v <= range.max),
  );
}

/**
 * One of a few literal values.
 * @example
 * import { oneOf } from './option-rules.js';
 * oneOf(['deny', 'pass-through']).expected; // 'one of `deny`, `pass-through`'
 */
export function oneOf(values: readonly (string | number | boolean | null)[]): OptionRule {
  const shown = values.map((v) => (typeof v === 'string' ? `\`${v}\`` : String(v)));
  return test(`one of ${shown.join(', ')}`, (v) => values.includes(v as string));
}

/**
 * Any of several rules (`a function or null`).
 * @example
 * import { anyOf, func, oneOf } from './option-rules.js';
 * anyOf(func(), oneOf([null])).expected; // 'a function or one of null'
 */
export function anyOf(...rules: readonly OptionRule[]): OptionRule {
  return test(rules.map((r) => r.expected).join(' or '), (v) =>
    rules.some((r) => r.kind === 'test' && r.test(v)),
  );
}

/**
 * An object with methods of these names (a store, a policy, a client): duck typing, as the factory uses it.
 * @example
 * import { withMethods } from './option-rules.js';
 * withMethods('a limits store', ['apply', 'read']).expected; // 'a limits store (an object with apply(), read())'
 */
export function withMethods(what: string, methods: readonly string[]): OptionRule {
  return test(`${what} (an object with ${methods.map((m) => `${m}()`).join(', ')})`, (v) => {
    if (typeof v !== 'object' || v === null) return false;
    return methods.every((m) => typeof (v as Record<string, unknown>)[m] === 'function');
  });
}

/**
 * An object (a store, a client: often a class instance) whose named members each follow their
 * rule, methods found on its prototype too; other members are its own business. Unlike
 * `withMethods`, each problem names the member (`store.sync`).
 * @example
 * import { bool, func, members, required } from './option-rules.js';
 * members('a limits store', { sync: required(bool()), apply: required(func()) }).expected; // 'a limits store'
 */
export const members = (what: string, fields: OptionSpec['fields']): OptionRule => ({
  kind: 'members',
  expected: what,
  spec: { fields },
});

/**
 * A nested object of known fields, each checked by its own rule.
 * @example
 * import { object, oneOf } from './option-rules.js';
 * object({ fields: { status: oneOf([403, 429]) } }).expected; // 'an object'
 */
export const object = (spec: OptionSpec): OptionRule => ({ kind: 'object', expected: 'an object', spec });

/**
 * An object of any keys whose values all follow one rule.
 * @example
 * import { record, text } from './option-rules.js';
 * record(text()).expected; // 'an object of a non-empty string'
 */
export const record = (value: OptionRule): OptionRule => ({
  kind: 'record',
  expected: `an object of ${value.expected}`,
  value,
});

/**
 * Marks a rule required.
 * @example
 * import { func, required } from './option-rules.js';
 * required(func()).required; // true
 */
export const required = (rule: OptionRule): RequiredRule => ({ required: true, rule });

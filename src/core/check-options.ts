/** Checks a factory's options against its spec at once: every problem found, the first in the message. */
import { TollgateError } from './errors.js';
import type { OptionRule, OptionSpec, RequiredRule } from './option-rules.js';
import { showText } from './show-text.js';
import { didYouMean } from './suggest.js';

/**
 * A spec compiled for one factory: its name (said first in every message) and its rules.
 * @example
 * import { defineOptions } from './check-options.js';
 * import { func } from './option-rules.js';
 * const CLOCK_OPTIONS = defineOptions('createClock', { fields: { now: func() } });
 * CLOCK_OPTIONS.names; // ['now']
 */
export interface CompiledOptions {
  readonly factory: string;
  readonly spec: OptionSpec;
  /** The option names, in the spec's order (for "valid options" and "did you mean"). */
  readonly names: readonly string[];
}

/**
 * Compiles a spec once, at module load, for `checkOptions` to use on every call of the factory.
 * @example
 * import { defineOptions } from './check-options.js';
 * import { number } from './option-rules.js';
 * const STORE_OPTIONS = defineOptions('createMemoryStore', { fields: { maxIdentities: number({ min: 1, integer: true }) } });
 */
export function defineOptions(factory: string, spec: OptionSpec): CompiledOptions {
  return { factory, spec, names: Object.keys(spec.fields) };
}

/**
 * A value shown in a message: never throws (a Proxy, a throwing `toString`) and stays on one line.
 * @example
 * import { describeValue } from './check-options.js';
 * describeValue('x'); // '`"x"`'
 * describeValue(null); // '`null`'
 */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return `\`"${showText(value)}"\``;
    case 'number':
    case 'boolean':
    case 'undefined':
      return `\`${String(value)}\``;
    case 'bigint':
      return `\`${String(value)}n\``;
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
    default:
      if (value === null) return '`null`';
      try {
        return Array.isArray(value) ? 'an array' : 'an object';
      } catch {
        return 'an object'; // Array.isArray throws on a revoked Proxy
      }
  }
}

const isRequired = (rule: OptionRule | RequiredRule): rule is RequiredRule => 'required' in rule;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  try {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Every problem of `value` under `rule`, each a line naming `path`. */
function problemsOf(rule: OptionRule, value: unknown, path: string, out: string[]): void {
  if (rule.kind === 'test') {
    if (!rule.test(value)) out.push(`\`${path}\` must be ${rule.expected}, got ${describeValue(value)}`);
    return;
  }
  if (!isPlainObject(value)) {
    out.push(`\`${path}\` must be ${rule.expected}, got ${describeValue(value)}`);
    return;
  }
  if (rule.kind === 'record') {
    for (const key of Object.keys(value)) problemsOf(rule.value, value[key], `${path}.${key}`, out);
    return;
  }
  specProblems(rule.spec, value, `${path}.`, out, rule.kind === 'members');
}

function specProblems(
  spec: OptionSpec,
  value: Record<string, unknown>,
  prefix: string,
  out: string[],
  othersAllowed = false,
): void {
  const names = Object.keys(spec.fields);
  if (!othersAllowed)
    for (const key of Object.keys(value))
      if (!Object.hasOwn(spec.fields, key))
        out.push(
          `unknown option \`${prefix}${showText(key)}\`${didYouMean(key, names)}; valid: ${names.join(', ')}`,
        );
  for (const name of names) {
    const field = spec.fields[name]!;
    const given = value[name];
    if (given === undefined) {
      if (isRequired(field)) out.push(`\`${prefix}${name}\` is required: give ${field.rule.expected}`);
      continue;
    }
    problemsOf(isRequired(field) ? field.rule : field, given, `${prefix}${name}`, out);
  }
  for (const group of spec.oneRequired ?? [])
    if (group.every((name) => value[name] === undefined))
      out.push(`give ${group.map((name) => `\`${prefix}${name}\``).join(' or ')}`);
}

/**
 * Throws `TOLLGATE_INVALID_OPTION` when `options` breaks the spec: the message is the first
 * problem, one line, factory first (``createGate: `resolveToken` must be a function, got `"x"` ``);
 * `details` lists them all. `undefined` options are an empty object; any other non-object is refused.
 * @example
 * import { checkOptions, defineOptions } from './check-options.js';
 * import { oneOf } from './option-rules.js';
 * const SPEC = defineOptions('createThing', { fields: { mode: oneOf(['a', 'b']) } });
 * checkOptions(SPEC, { mode: 'a' }); // passes
 */
export function checkOptions(compiled: CompiledOptions, options: unknown): void {
  const problems: string[] = [];
  // A getter that throws or a Proxy trap is the caller's bug, but still one clear line.
  try {
    if (options === undefined) specProblems(compiled.spec, {}, '', problems);
    else if (!isPlainObject(options))
      problems.push(`options must be an object, got ${describeValue(options)}`);
    else specProblems(compiled.spec, options, '', problems);
  } catch {
    problems.push('options could not be read: a getter or a Proxy trap threw');
  }
  if (problems.length === 0) return;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more: see details)` : '';
  throw new TollgateError('TOLLGATE_INVALID_OPTION', `${compiled.factory}: ${problems[0]}${more}`, {
    details: problems.map((problem) => `${compiled.factory}: ${problem}`),
  });
}

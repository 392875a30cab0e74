/** Strict argument parsing for CLI commands, with one-line errors that list the valid choices. */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { didYouMean } from '../core/suggest.js';
import { UsageError } from './io.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** What node's parser says of each argument (`tokens: true`), as far as the checks here read it. */
interface OptionToken {
  readonly kind: string;
  readonly name?: string;
  readonly value?: string | undefined;
}

/** Parsed flags and positionals of one command. */
export interface ParsedArgs {
  readonly values: Record<string, string | boolean | string[] | undefined>;
  readonly positionals: string[];
}

/**
 * Parses `args` against `options`, turning node's errors into a one-line UsageError that names the
 * flag and the known ones. A flag that takes one value (a string without `multiple`) given twice
 * is refused: node's parser would keep the last silently (`--kind classic --kind fine-grained`).
 */
export function parseCommandArgs(command: string, args: readonly string[], options: Options): ParsedArgs {
  let parsed: { values: object; positionals: string[]; tokens: readonly OptionToken[] };
  try {
    parsed = parseArgs({
      args: joinNegativeValues(args, options),
      options,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    const flag = /'(-{1,2}[^' ]+)/.exec(text)?.[1];
    const known = Object.keys(options).map((name) => `--${name}`);
    if (flag !== undefined && /Unknown option/i.test(text)) {
      throw new UsageError(
        `${command}: unknown option \`${flag}\`${didYouMean(flag, known)}; valid options: ${known.join(', ')}`,
      );
    }
    // A flag at the end with its value forgotten: node says "Option '--kind <value>' argument missing".
    if (flag !== undefined && /argument missing/i.test(text))
      throw new UsageError(
        `${command}: \`${flag}\` needs a value (\`${flag} <value>\`; \`tollgate ${command} --help\` says what it takes)`,
      );
    throw new UsageError(`${command}: ${text.split('\n')[0]}`);
  }
  refuseRepeatedValues(command, parsed.tokens, options);
  return { values: parsed.values as ParsedArgs['values'], positionals: parsed.positionals };
}

/**
 * Throws on the second use of a single-valued flag, naming both values:
 * `--token a.yaml --token b.yaml` -> ``explain: `--token` given twice (`a.yaml`, then `b.yaml`); give it once``.
 */
function refuseRepeatedValues(command: string, tokens: readonly OptionToken[], options: Options): void {
  const first = new Map<string, string>();
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name === undefined) continue;
    const option = options[token.name];
    if (option?.type !== 'string' || option.multiple) continue;
    const value = token.value ?? '';
    const earlier = first.get(token.name);
    if (earlier !== undefined)
      throw new UsageError(
        `${command}: \`--${token.name}\` given twice (\`${earlier}\`, then \`${value}\`); give it once`,
      );
    first.set(token.name, value);
  }
}

/**
 * `--repositories -5` as `--repositories=-5`: node's parser refuses a value that looks like an
 * option ("argument is ambiguous"); joined, the command can say what is wrong with the value.
 */
function joinNegativeValues(args: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** Requires `value` to be one of `choices`, naming them when it is not. */
export function oneOf<T extends string>(what: string, value: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(
    `unknown ${what} \`${value}\`${didYouMean(value, choices)}; valid choices: ${choices.join(', ')}`,
  );
}

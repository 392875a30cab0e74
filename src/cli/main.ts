/** The `tollgate` command as a function: dispatches to one file per command, maps errors to exit codes. */

import { escapeControl } from '../core/escape-control.js';
import { didYouMean } from '../core/suggest.js';
import { isTollgateError } from '../index.js';
import { commands } from './commands.js';
import { type CliIo, EXIT, UsageError } from './io.js';
import { capPerFile, fileOfLine } from './problem-list.js';
import { TOLLGATE_VERSION } from './version.js';

const USAGE = `usage: tollgate <command> [options]

commands:
  explain METHOD PATH   decide one request and say why
  endpoints             list the endpoint table
  validate FILE...      validate table, overlay or token files
  limits --kind K       the rate limits that apply to a caller
  check SOURCE...       does a token suffice for every call an app makes; the least grant
  simulate SCENARIO     traffic against the limits in virtual time

options:
  --help, -h            this text; \`tollgate <command> --help\` for a command's options
  --version, -v         the package version

example:
  tollgate explain GET /repos/acme/app/issues/events/7 --kind fine-grained --permission issues=read`;

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    // No command is bad input: a pipeline that forgot its arguments must not pass.
    io.stderr(`${USAGE}\n`);
    return EXIT.badInput;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout(`${USAGE}\n`);
    return EXIT.ok;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    io.stdout(`${TOLLGATE_VERSION}\n`);
    return EXIT.ok;
  }
  const load = commands[name];
  if (load === undefined) {
    const names = Object.keys(commands);
    io.stderr(
      `tollgate: unknown command \`${escapeControl(name)}\`${escapeControl(didYouMean(name, names))}; valid commands: ${names.join(', ')}\n`,
    );
    return EXIT.badInput;
  }
  try {
    const command = await load();
    return await command(rest, io);
  } catch (error) {
    if (error instanceof UsageError || isTollgateError(error)) {
      // Values from input (file names, token fields) may hold escape sequences: never sent raw.
      io.stderr(`tollgate: ${escapeControl(error.message)}\n`);
      const details = isTollgateError(error) ? error.details : [];
      for (const line of capPerFile(details.map((text) => ({ file: fileOfLine(text), text }))))
        io.stderr(`${escapeControl(line)}\n`);
      return EXIT.badInput;
    }
    throw error;
  }
}

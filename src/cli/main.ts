#!/usr/bin/env node
/** The `tollgate` command: dispatches to one file per command, maps errors to exit codes. */
import { isTollgateError } from '../errors.js';
import { didYouMean } from '../tables/suggest.js';
import { commands } from './commands.js';
import { type CliIo, EXIT, UsageError } from './io.js';

const USAGE = `usage: tollgate <command> [options]

commands:
  explain METHOD PATH   decide one request and say why
  endpoints             list the endpoint table
  validate FILE...      validate table, overlay or token files
  limits --kind K       the rate limits that apply to a caller

run \`tollgate <command> --help\` for a command's options`;

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(`${USAGE}\n`);
    return name === undefined ? EXIT.badInput : EXIT.ok;
  }
  const load = commands[name];
  if (load === undefined) {
    const names = Object.keys(commands);
    io.stderr(
      `tollgate: unknown command \`${name}\`${didYouMean(name, names)}; valid commands: ${names.join(', ')}\n`,
    );
    return EXIT.badInput;
  }
  try {
    const command = await load();
    return await command(rest, io);
  } catch (error) {
    if (error instanceof UsageError || isTollgateError(error)) {
      io.stderr(`tollgate: ${error.message}\n`);
      for (const detail of isTollgateError(error) ? error.details : []) io.stderr(`${detail}\n`);
      return EXIT.badInput;
    }
    throw error;
  }
}

const isMain = process.argv[1] !== undefined && /cli[\\/]main\.(js|ts)$/.test(process.argv[1]);
if (isMain) {
  const io: CliIo = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    isTty: process.stdout.isTTY === true,
  };
  runCli(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `tollgate: internal error: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exitCode = 70;
    },
  );
}

/** The CliIo of a real process: its stdout, stderr and whether stdout is a terminal. */
import { errnoReason } from '../core/file-system-words.js';
import { type CliIo, EXIT } from './io.js';

/** Why a stream could not be written, in words, with the system's code. */
const reasonOf = (error: NodeJS.ErrnoException): string =>
  error.code === undefined ? errnoReason(error) : `${errnoReason(error)} (${error.code})`;

/**
 * Writes to a stream until its reader goes away: a closed pipe (`tollgate endpoints | head -1`)
 * ends the output quietly instead of an unhandled EPIPE. Any other stream error is reported once,
 * one line, and makes the exit code 2 (a report cut short must not pass).
 */
function sink(stream: NodeJS.WriteStream, name: string, onFailure: () => void): (text: string) => void {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    closed = true;
    if (error.code === 'EPIPE' || stream === process.stderr) return;
    onFailure();
    // The error may come after the command returned and bin.ts set the exit code.
    if (process.exitCode === undefined || Number(process.exitCode) < EXIT.badInput)
      process.exitCode = EXIT.badInput;
    process.stderr.write(`tollgate: cannot write to ${name}: ${reasonOf(error)}\n`);
  });
  return (text) => {
    if (!closed) stream.write(text);
  };
}

/** The process's CliIo, and whether stdout failed (a full disk: `tollgate endpoints > /dev/full`). */
export interface ProcessIo extends CliIo {
  /** True once stdout could not be written: the output is cut short, so the run must not exit 0. */
  readonly outputFailed: () => boolean;
}

export function processIo(): ProcessIo {
  let failed = false;
  const onFailure = () => {
    failed = true;
  };
  return {
    stdout: sink(process.stdout, 'stdout', onFailure),
    stderr: sink(process.stderr, 'stderr', onFailure),
    outputFailed: () => failed,
    isTty: process.stdout.isTTY === true,
    stderrIsTty: process.stderr.isTTY === true,
  };
}

/** The CliIo of a real process: its stdout, stderr and whether stdout is a terminal. */
import type { CliIo } from './io.js';

/**
 * Writes to a stream until its reader goes away: a closed pipe (`tollgate endpoints | head -1`)
 * ends the output quietly instead of an unhandled EPIPE; any other stream error is reported once.
 */
function sink(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    closed = true;
    if (error.code !== 'EPIPE' && stream !== process.stderr)
      process.stderr.write(`tollgate: cannot write the output: ${error.message}\n`);
  });
  return (text) => {
    if (!closed) stream.write(text);
  };
}

export function processIo(): CliIo {
  return {
    stdout: sink(process.stdout),
    stderr: sink(process.stderr),
    isTty: process.stdout.isTTY === true,
    stderrIsTty: process.stderr.isTTY === true,
  };
}

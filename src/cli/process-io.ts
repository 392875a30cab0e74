/** The CliIo of a real process: its stdout, stderr and whether stdout is a terminal. */
import type { CliIo } from './io.js';

export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    isTty: process.stdout.isTTY === true,
  };
}

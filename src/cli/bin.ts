#!/usr/bin/env node
import { escapeControl } from '../core/escape-control.js';
/** The executable `tollgate`: runs the CLI unconditionally, whatever name or link it was reached by. */
import { runCli } from './main.js';
import { processIo } from './process-io.js';

const io = processIo();
runCli(process.argv.slice(2), io).then(
  (code) => {
    // A stdout that failed (a full disk) makes the run fail, whatever the command said.
    process.exitCode = io.outputFailed() ? Math.max(code, 2) : code;
  },
  (error: unknown) => {
    io.stderr(
      `tollgate: internal error: ${escapeControl(error instanceof Error ? error.message : String(error))}\n`,
    );
    process.exitCode = 70;
  },
);

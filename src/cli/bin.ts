#!/usr/bin/env node
/** The executable `tollgate`: runs the CLI unconditionally, whatever name or link it was reached by. */
import { runCli } from './main.js';
import { processIo } from './process-io.js';

runCli(process.argv.slice(2), processIo()).then(
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

/** `tollgate simulate SCENARIO`: traffic against the limits in virtual time, and what it met. */
import { writeFileSync } from 'node:fs';
import { shippedTables } from '../policy/index.js';
import {
  htmlReport,
  jsonChunks,
  readScenario,
  recommend,
  type SimulationReport,
  simulate,
  textReport,
} from '../sim/index.js';
import { readTextFile } from '../tables/index.js';
import { parseCommandArgs } from './args.js';
import { type Command, EXIT, UsageError } from './io.js';

const HELP = `usage: tollgate simulate SCENARIO [options]

Runs the callers of a scenario file (YAML or JSON; schema data/schema/scenario.schema.json) against
the limits, in virtual time, with the limiter and store a server runs, and reports per caller and
per limit what was sent, admitted and denied, time limited, requests sent while limited, and when
the work was done. Deterministic: the same scenario and seed give the same report.

  --json                the report as JSON
  --html FILE           also write a self-contained HTML page with charts over time
  --limits FILE         a limits overlay (any subset of data/limits.yaml's fields, e.g. the search
                        or GraphQL numbers the seed does not show), over the scenario's own
                        \`limits\` and the shipped table
  --no-request-cap      run a scenario estimated above 10^9 simulated requests (refused by
                        default, exit 2, naming the field that drives the estimate)
  --recommend           for each caller with work, the largest steady rate (and workers) that
                        meets no limit (runs the scenario again, 17 times per caller)
  --help, -h            this text

example:
  tollgate simulate examples/sim/nightly-sync.yaml --recommend

exit: 0 done, 2 bad input`;

/** A bar on stderr for runs that take over a second, on a terminal only. */
function progressBar(io: Parameters<Command>[1]): { update(done: number): void; clear(): void } {
  const started = Date.now();
  let shown = false;
  return {
    update(done) {
      if (!io.isTty || Date.now() - started < 1000) return;
      shown = true;
      const width = 30;
      const filled = Math.round(Math.min(1, done) * width);
      io.stderr(
        `\rsimulating [${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${Math.round(done * 100)}%`,
      );
    },
    clear() {
      if (shown) io.stderr(`\r${' '.repeat(50)}\r`);
    },
  };
}

export const simulateCommand: Command = (args, io) => {
  const { values, positionals } = parseCommandArgs('simulate', args, {
    json: { type: 'boolean' },
    html: { type: 'string' },
    recommend: { type: 'boolean' },
    limits: { type: 'string' },
    'no-request-cap': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout(`${HELP}\n`);
    return EXIT.ok;
  }
  if (positionals.length !== 1)
    throw new UsageError('simulate: give one SCENARIO file; see `tollgate simulate --help`');
  const file = positionals[0]!;
  const tables = shippedTables();
  // --limits applies over the scenario's own `limits`.
  const scenario = readScenario(readTextFile(file), file, tables, {
    ...(typeof values.limits === 'string' ? { limitsFile: values.limits } : {}),
  });
  const requestCap = values['no-request-cap'] ? Number.POSITIVE_INFINITY : undefined;
  const bar = progressBar(io);
  let report: SimulationReport;
  try {
    report = simulate(scenario, tables, undefined, {
      onProgress: (done) => bar.update(done),
      ...(requestCap === undefined ? {} : { requestCap }),
    });
  } finally {
    bar.clear();
  }
  const recommendations = values.recommend
    ? scenario.callers.map((caller, i) =>
        caller.work === undefined ? undefined : recommend(scenario, i, tables),
      )
    : [];
  if (typeof values.html === 'string')
    writeFileSync(values.html, htmlReport(report, `tollgate simulate ${file}`));
  if (values.json) {
    // Written piece by piece, in writes of about 64 KB: no report is ever one giant string.
    let buffer = '';
    for (const piece of jsonChunks({ ...report, recommendations: recommendations.map((r) => r ?? null) })) {
      buffer += piece;
      if (buffer.length >= 65_536) {
        io.stdout(buffer);
        buffer = '';
      }
    }
    io.stdout(`${buffer}\n`);
  } else io.stdout(textReport(report, recommendations));
  return EXIT.ok;
};

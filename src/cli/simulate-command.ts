/** `tollgate simulate SCENARIO`: traffic against the limits in virtual time, and what it met. */
import { shippedTables } from '../policy.js';
import {
  adviceText,
  DURATION_FORMS,
  durationSeconds,
  expandScenario,
  htmlReport,
  jsonChunks,
  type PlannerAdvice,
  poolSummaries,
  poolText,
  readScenario,
  recommend,
  type SimulationReport,
  simulate,
  textReport,
} from '../sim.js';
import { readTextFile } from '../tables.js';
import { parseCommandArgs } from './args.js';
import { type Command, EXIT, UsageError } from './io.js';
import { checkOutputPath, writeOutputFile } from './output-file.js';
import { progress } from './simulate-progress.js';

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
  --recommend           for every caller, the pace that finishes its work soonest without a
                        single refusal (a caller without work: a pace it can sustain), callers
                        of one identity planned together, the rule that binds, checked by a run;
                        says when a polite client at full speed is sooner
  --within T            with --recommend: how many users or installations finish each caller's
                        work within T (seconds, or 90s, 10m, 1h30m, 2d), checked by runs
  --progress            show progress and the time left on stderr even when it is not a
                        terminal (on a terminal it shows for runs over a second)
  --help, -h            this text

example:
  tollgate simulate examples/sim/nightly-sync.yaml --recommend

exit: 0 done, 2 bad input (or a --html FILE that cannot be written: the report is still printed)`;

export const simulateCommand: Command = (args, io) => {
  const { values, positionals } = parseCommandArgs('simulate', args, {
    json: { type: 'boolean' },
    html: { type: 'string' },
    recommend: { type: 'boolean' },
    limits: { type: 'string' },
    'no-request-cap': { type: 'boolean' },
    within: { type: 'string' },
    progress: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout(`${HELP}\n`);
    return EXIT.ok;
  }
  if (positionals.length !== 1)
    throw new UsageError('simulate: give one SCENARIO file; see `tollgate simulate --help`');
  const file = positionals[0]!;
  // Before the run, which may be long: an unwritable page is known now.
  if (typeof values.html === 'string') checkOutputPath('--html', values.html);
  const tables = shippedTables();
  // --limits applies over the scenario's own `limits`.
  const scenario = readScenario(readTextFile(file), file, tables, {
    ...(typeof values.limits === 'string' ? { limitsFile: values.limits } : {}),
  });
  const requestCap = values['no-request-cap'] ? Number.POSITIVE_INFINITY : undefined;
  // sim-planner: --within needs --recommend; durations as the scenario writes them.
  let withinSeconds: number | undefined;
  if (values.within !== undefined) {
    if (!values.recommend) throw new UsageError('simulate: `--within` goes with `--recommend`');
    const seconds = durationSeconds(values.within);
    if (seconds === null || seconds <= 0)
      throw new UsageError(
        `simulate: \`--within\` is \`${values.within}\`: expected ${DURATION_FORMS}, above 0`,
      );
    withinSeconds = seconds;
  }
  const forced = values.progress === true;
  const expanded = expandScenario(scenario);
  const bar = progress(io, 'simulating', forced, io.clock);
  let report: SimulationReport;
  try {
    bar.update(0);
    report = simulate(expanded.scenario, tables, undefined, {
      onProgress: (done) => bar.update(done),
      ...(requestCap === undefined ? {} : { requestCap }),
    });
    bar.update(1);
  } finally {
    bar.clear();
  }
  let recommendations: PlannerAdvice[] | undefined;
  if (values.recommend) {
    const planning = progress(io, 'recommending', forced, io.clock);
    try {
      planning.update(0);
      recommendations = recommend(scenario, tables, {
        ...(withinSeconds === undefined ? {} : { withinSeconds }),
        ...(requestCap === undefined ? {} : { requestCap }),
        onProgress: (done) => planning.update(done),
      });
    } finally {
      planning.clear();
    }
  }
  const pools = poolSummaries(expanded.pools, report);
  // The page shows the advice too (SimulationReport.recommendations).
  const advised = recommendations === undefined ? report : Object.assign({}, report, { recommendations });
  // A page that cannot be written after all (the disk filled during the run) still lets the
  // report below be printed; the failure is said last and the exit is 2.
  let unwritten: UsageError | undefined;
  if (typeof values.html === 'string')
    try {
      writeOutputFile('--html', values.html, htmlReport(advised, `tollgate simulate ${file}`));
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      unwritten = error;
    }
  if (values.json) {
    // Written piece by piece, in writes of about 64 KB: no report is ever one giant string.
    let buffer = '';
    const whole = {
      ...report,
      ...(pools.length > 0 ? { pools } : {}),
      ...(recommendations === undefined ? {} : { recommendations }),
    };
    for (const piece of jsonChunks(whole)) {
      buffer += piece;
      if (buffer.length >= 65_536) {
        io.stdout(buffer);
        buffer = '';
      }
    }
    io.stdout(`${buffer}\n`);
  } else {
    const lines = [...poolText(pools), ...adviceText(recommendations ?? [])];
    io.stdout(`${textReport(report, [])}${lines.map((line) => `${line}\n`).join('')}`);
  }
  if (unwritten !== undefined) throw unwritten;
  return EXIT.ok;
};

// `npm run bench:instructions [policy] [gate] [http] [--simulate] [--runs N]`: tollgate and its
// peers counted in CPU instructions per request (valgrind's cachegrind), a figure this shared 2-core
// machine moves far less than time: the timed bench's ratios swing by a third between runs, the
// same op's count by 2% to 9% (six runs of one build's `authorize`: 5,651-6,158; V8's optimizing
// decisions differ between processes, fixed hash and random seeds or not). Each op runs in its own
// process twice, with two counts; the difference of the totals over the difference of the requests
// is its cost per request (setup, compile and warm-up cancel out). `--runs N` (1 to 20, default 1)
// does that N times and prints each op's median with its min-max; ratios are of the medians.
// Compare two builds over several runs, not one.
// `policy`: the policy's ops and find-my-way over the bench mix (bench/instruction-ops.mjs).
// `gate`: the tollgate and peer-stack middlewares of the http scenario on plain objects in place of
// node's (their own work, without node's), and the gate's parts (bench/middleware-ops.mjs).
// `http`: the servers of the http scenario driven in-process over fake sockets
// (bench/http-inprocess.mjs): node's parser and writer, the framework and the gate, no kernel.
// Instructions are not time (cache misses and branches are not counted), so this sits beside
// `npm run bench`, not in place of it. `--simulate` also runs cachegrind's cache and branch
// simulators and gives first-level data misses and mispredicted branches per request (slower; a
// model of a cache and a predictor, not this machine's). Needs valgrind; about 15 minutes on 2
// cores for both groups.
import { execFile, execFileSync } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';
import { HTTP_RATIOS, HTTP_SERVERS } from './http.mjs';

const run = promisify(execFile);
const here = (file) => new URL(file, import.meta.url).pathname;
const GROUPS = ['policy', 'gate', 'http'];
const args = process.argv.slice(2);
const simulate = args.includes('--simulate');
const runsAt = args.indexOf('--runs');
const RUNS = runsAt < 0 ? 1 : Number(args[runsAt + 1]);
if (!Number.isInteger(RUNS) || RUNS < 1 || RUNS > 20) {
  console.error(
    `bench:instructions: --runs must be an integer from 1 to 20, got \`${args[runsAt + 1] ?? ''}\``,
  );
  process.exit(2);
}
const wanted = args.filter(
  (arg, i) => arg !== '--simulate' && (runsAt < 0 || (i !== runsAt && i !== runsAt + 1)),
);
const unknown = wanted.filter((group) => !GROUPS.includes(group));
if (unknown.length > 0) {
  console.error(
    `bench:instructions: unknown group ${unknown.join(', ')}; valid: ${GROUPS.join(', ')}, --simulate and --runs N`,
  );
  process.exit(2);
}
const wants = (group) => wanted.length === 0 || wanted.includes(group);
try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  console.error('bench:instructions: valgrind not found; install it (apt-get install valgrind)');
  process.exit(2);
}

const POLICY_FMW = 'find-my-way find';
// The http scenario's servers but Express, whose 670,000 instructions per request take valgrind
// longer than all the others together; its ratio has no target.
const HTTP_KINDS = HTTP_SERVERS.filter((kind) => kind !== 'express+express-rate-limit');
// Each job: a label, a count of requests and the node arguments that run that many (plus a warm-up).
const jobs = [];
// Each op of a child that lists its ops (`--list`), in its own process, with two counts.
function opJobs(group, child) {
  const ops = JSON.parse(execFileSync(process.execPath, [here(child), '--list'], { encoding: 'utf8' }));
  for (let run = 0; run < RUNS; run++)
    for (const op of ops)
      for (const count of [20_000, 120_000])
        jobs.push({ group, label: op, run, requests: count, args: [here(child), op, String(count)] });
}
if (wants('policy')) opJobs('policy', './instruction-ops.mjs');
if (wants('gate')) opJobs('gate', './middleware-ops.mjs');
if (wants('http'))
  // One warm-up batch, then one round, each of `count` requests: 2 x count in all.
  for (let run = 0; run < RUNS; run++)
    for (const kind of HTTP_KINDS)
      for (const count of [5_000, 20_000])
        jobs.push({
          group: 'http',
          label: kind,
          run,
          requests: 2 * count,
          args: [here('./http-inprocess.mjs'), kind, '1', String(count)],
        });

/** cachegrind's totals for a job's process: instructions, and with --simulate its data misses and mispredicts. */
async function countsOf(job) {
  const { stderr } = await run(
    'valgrind',
    [
      '--tool=cachegrind',
      `--cache-sim=${simulate ? 'yes' : 'no'}`,
      `--branch-sim=${simulate ? 'yes' : 'no'}`,
      '--cachegrind-out-file=/dev/null',
      process.execPath,
      '--single-threaded',
      ...job.args,
    ],
    { maxBuffer: 1 << 24 },
  );
  const total = (name) => {
    const found = new RegExp(`${name}:\\s+([\\d,]+)`).exec(stderr);
    if (found === null)
      throw new Error(`bench:instructions: no ${name} total for \`${job.label}\`:\n${stderr}`);
    return Number(found[1].replaceAll(',', ''));
  };
  const counts = { instructions: total('I\\s+refs') };
  if (simulate) {
    counts.d1Misses = total('D1\\s+misses');
    counts.mispredicts = total('Mispredicts');
  }
  return counts;
}

const started = Date.now();
let next = 0;
const worker = async () => {
  while (next < jobs.length) {
    const job = jobs[next++];
    job.totals = await countsOf(job);
  }
};
await Promise.all(Array.from({ length: Math.max(1, os.cpus().length) }, worker));

// Per label of a group, its runs' counts per request, sorted: (total of the larger count - total
// of the smaller) / (their requests' difference), of cachegrind's `counter` (instructions, or with
// --simulate d1Misses, mispredicts).
function perRequestRuns(group, counter = 'instructions') {
  const ofGroup = jobs.filter((job) => job.group === group);
  const runs = new Map();
  // As pushed: per run and op, its smaller count, then its larger.
  for (let i = 0; i < ofGroup.length; i += 2) {
    const [few, many] = [ofGroup[i], ofGroup[i + 1]];
    const ofLabel = runs.get(few.label) ?? [];
    ofLabel.push((many.totals[counter] - few.totals[counter]) / (many.requests - few.requests));
    runs.set(few.label, ofLabel);
  }
  for (const ofLabel of runs.values()) ofLabel.sort((a, b) => a - b);
  return runs;
}
const median = (sorted) =>
  sorted.length % 2 === 1
    ? sorted[(sorted.length - 1) / 2]
    : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
/** Each label's median of its runs. */
const mediansOf = (runs) => new Map([...runs].map(([label, sorted]) => [label, median(sorted)]));
const show = (count) => Math.round(count).toLocaleString('en');
/** A label's median, and with --runs its min-max. */
const shown = (sorted) =>
  RUNS === 1
    ? show(sorted[0])
    : `${show(median(sorted))} (${show(sorted[0])}-${show(sorted[sorted.length - 1])})`;
/** With --simulate: the group's simulated first-level data misses and mispredicted branches per request. */
function printSimulated(group) {
  if (!simulate) return;
  const misses = mediansOf(perRequestRuns(group, 'd1Misses'));
  const mispredicts = mediansOf(perRequestRuns(group, 'mispredicts'));
  console.log('  simulated, per request: first-level data misses, mispredicted branches');
  for (const [label, count] of misses)
    console.log(
      `    ${label.padEnd(42)} ${show(count).padStart(7)} ${show(mispredicts.get(label)).padStart(7)}`,
    );
}

if (wants('policy')) {
  const runs = perRequestRuns('policy');
  const counts = mediansOf(runs);
  console.log('policy: instructions per request over the bench mix');
  for (const [op, sorted] of runs) console.log(`  ${op.padEnd(44)} ${shown(sorted)}`);
  console.log("  as speed ratios to find-my-way (its instructions over the op's):");
  for (const [op, count] of counts)
    if (op !== POLICY_FMW)
      console.log(`    ${op.padEnd(42)} ${(counts.get(POLICY_FMW) / count).toFixed(2)}x`);
  printSimulated('policy');
}
if (wants('gate')) {
  const runs = perRequestRuns('gate');
  const counts = mediansOf(runs);
  console.log(
    "gate: instructions per request over the http scenario's requests, without node's parser and writer",
  );
  for (const [op, sorted] of runs) console.log(`  ${op.padEnd(52)} ${shown(sorted)}`);
  const [ours, peer] = ['tollgate middleware (node adapter)', 'peer-stack middleware'].map((op) =>
    counts.get(op),
  );
  console.log(`  tollgate middleware / peer-stack middleware: ${(ours / peer).toFixed(2)}x`);
  printSimulated('gate');
}
if (wants('http')) {
  const runs = perRequestRuns('http');
  const counts = mediansOf(runs);
  console.log('http (in-process, fake sockets): instructions per request');
  for (const [kind, sorted] of runs) console.log(`  ${kind.padEnd(44)} ${shown(sorted)}`);
  console.log('  ratios (instructions over instructions; the target is on server CPU time):');
  // The http scenario's ratios and targets (bench/http.mjs), here over instructions.
  for (const [name, over, under, most] of HTTP_RATIOS)
    if (HTTP_KINDS.includes(over) && HTTP_KINDS.includes(under))
      console.log(
        `    ${name.replaceAll(' CPU', '').padEnd(54)} ${(counts.get(over) / counts.get(under)).toFixed(2)}x${most === null ? '' : `   target <= ${most}`}`,
      );
  printSimulated('http');
}
console.log(
  `${Math.round((Date.now() - started) / 1000)} s${RUNS === 1 ? '' : `; ${RUNS} runs, each figure the median (min-max)`}`,
);

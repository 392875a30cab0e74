// `npm run bench`: every scenario, peers side by side, on the same request mix; prints a table per
// scenario and every ratio as min / median / max over the runs beside its target, and writes
// bench/results.json. `node --expose-gc bench/index.mjs policy stack` runs only the named
// scenarios (default: all); BENCH_RUNS sets the runs of each scenario (default 5).
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { Bench } from 'tinybench';
import * as rootEntry from '../dist/index.js';
import * as limitsEntry from '../dist/limits.js';
import * as policyEntry from '../dist/policy.js';
import * as routesEntry from '../dist/routes.js';
import { measureAllocations } from './allocation-report.mjs';
import { printRatioSummary } from './bench-report.mjs';
import { benchClock, sink } from './measure.mjs';
import { MICRO_TARGETS, runMicroScenarios } from './micro-runs.mjs';
import { runCheckScenario, runHttpScenario, runRedisScenario, runSimScenario } from './process-scenarios.mjs';
import { buildRequestMix, describeMix } from './request-mix.mjs';

// The scenarios reach the public entries only: the root and the tollgate/policy, /routes and /limits subpaths.
const lib = { ...rootEntry, ...policyEntry, ...routesEntry, ...limitsEntry };

const SCENARIOS = ['policy', 'limits', 'stack', 'http', 'check', 'redis', 'sim'];
const wanted = process.argv.slice(2);
const unknown = wanted.filter((a) => !SCENARIOS.includes(a));
if (unknown.length > 0) {
  console.error(`bench: unknown scenario ${unknown.join(', ')}; valid: ${SCENARIOS.join(', ')}`);
  process.exit(2);
}
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
if (!Number.isInteger(RUNS) || RUNS < 1) {
  console.error(
    `bench: BENCH_RUNS must be a whole number of runs, at least 1 (got ${process.env.BENCH_RUNS})`,
  );
  process.exit(2);
}
const wants = (name) => wanted.length === 0 || wanted.includes(name);
const started = Date.now();

const machine = { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? 'unknown' };
console.log(`tollgate bench: node ${process.version}, ${machine.cpus} x ${machine.model}`);
if (typeof globalThis.gc !== 'function') console.log('(run with --expose-gc to collect between tasks)');

// The first compile, cold (the compiler's code not yet optimised): what a process pays at startup.
const coldStart = process.hrtime.bigint();
const tables = lib.shippedTables();
const coldCompileMs = Number((Number(process.hrtime.bigint() - coldStart) / 1e6).toFixed(2));
const rules = lib.shippedSources.permissions.value.rules;
const items = buildRequestMix({ tables, policy: lib.createPolicy(tables) });
const mix = describeMix(items, tables);
console.log(
  `request mix: ${mix.requests} requests, ${mix.endpoints}/${mix.tableEndpoints} endpoints, ` +
    `${mix.distinctPaths} distinct targets, ${Object.keys(mix.tokenKinds).length} token kinds, ` +
    `${mix.withQuery} with a query, ${mix.withDotGit} with .git, ${mix.multiSegment} multi-segment, ` +
    `${mix.public} public / ${mix.private} private`,
);
console.log(`decisions in the mix: ${JSON.stringify(mix.reasons)}`);
const clock = benchClock();
console.log(
  `clock: ${clock.name === 'cpu' ? 'process CPU time (process.cpuUsage; BENCH_CLOCK=wall for wall-clock)' : 'wall-clock (performance.now)'}; ` +
    'ops/s: from the median batch time of the best of 3 interleaved rounds (ns/op (median) = 1e9 / ops/s); ' +
    "ns/op (mean): the same round's mean batch time per request; ratios on the headline ops/s, and on means.",
);

const micro = await runMicroScenarios({ Bench, lib, tables, rules, items, wants, runs: RUNS, coldCompileMs });
const scenarios = micro.scenarios;
scenarios.summary = printRatioSummary(
  `ratios over ${RUNS} runs (min / median / max)`,
  micro.ratioRuns,
  MICRO_TARGETS,
);
const { allocations, memory } = await measureAllocations({
  lib,
  tables,
  items,
  wants,
  lastStack: micro.lastStack,
});
scenarios.allocations = allocations;
scenarios.memory = memory;

// Real servers, the CLI, Redis and the simulator, each after the in-process scenarios.
if (wants('http')) scenarios.http = await runHttpScenario();
if (wants('check')) scenarios.check = await runCheckScenario();
if (wants('redis')) scenarios.redis = await runRedisScenario();
if (wants('sim')) scenarios.sim = await runSimScenario();

const results = {
  date: new Date().toISOString(),
  node: process.version,
  machine: { ...machine, loadAverage: os.loadavg().map((x) => Number(x.toFixed(2))) },
  clock: clock.name,
  mix,
  scenarios,
  checksum: sink.value,
  seconds: Math.round((Date.now() - started) / 1000),
};
if (wanted.length === 0)
  writeFileSync(new URL('./results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nchecksum ${sink.value} (results consumed; guards against dead-code elimination)`);
console.log(
  `${results.seconds} s${wanted.length === 0 ? '; wrote bench/results.json' : ' (partial run: results.json not written)'}`,
);

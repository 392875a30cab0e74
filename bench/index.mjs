// `npm run bench`: every scenario in one process, on the same request mix, peers side by side;
// prints a table per scenario with ratios and writes bench/results.json.
// `node --expose-gc bench/index.mjs policy stack` runs only the named scenarios (default: all).
import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { Bench } from 'tinybench';
import * as rootEntry from '../dist/index.js';
import * as limitsEntry from '../dist/limits.js';
import * as policyEntry from '../dist/policy.js';
import * as routesEntry from '../dist/routes.js';
import { runPolicyBench } from './policy.mjs';
import { benchClock, buildRequestMix, describeMix, sink } from './request-mix.mjs';
import { runStackBench } from './stack.mjs';

// The scenarios reach the public entries only: the root and the tollgate/policy, /routes and /limits subpaths.
const lib = { ...rootEntry, ...policyEntry, ...routesEntry, ...limitsEntry };

const SCENARIOS = ['policy', 'limits', 'stack'];
const wanted = process.argv.slice(2);
const unknown = wanted.filter((a) => !SCENARIOS.includes(a));
if (unknown.length > 0) {
  console.error(`bench: unknown scenario ${unknown.join(', ')}; valid: ${SCENARIOS.join(', ')}`);
  process.exit(2);
}
const runs = (name) => wanted.length === 0 || wanted.includes(name);
const started = Date.now();

const fmt = (n) => (typeof n === 'number' ? n.toLocaleString('en-US') : String(n));

function printTable(title, results, ratios, ratiosMean) {
  console.log(`\n== ${title} ==`);
  const rows = Object.entries(results).map(([name, r]) => [
    name,
    fmt(r.opsPerSec),
    Number(r.nsPerOp).toFixed(1),
    r.meanNsPerOp === undefined ? '-' : Number(r.meanNsPerOp).toFixed(1),
    r.rmePercent === undefined ? '-' : `±${r.rmePercent}%`,
    r.samples === undefined ? '-' : String(r.samples),
    r.rounds === undefined ? '-' : r.rounds.map(fmt).join(' / '),
  ]);
  const head = ['task', 'ops/s', 'ns/op (median)', 'ns/op (mean)', 'rme', 'samples', 'ops/s per round'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(head));
  // ops/s: the best of the interleaved rounds, each round's figure from its median batch time.
  for (const row of rows) console.log(line(row));
  for (const [name, value] of Object.entries(ratios ?? {}))
    console.log(
      `ratio ${name}: ${value}x${ratiosMean?.[name] === undefined ? '' : ` (on means: ${ratiosMean[name]}x)`}`,
    );
}

function printTargets(targets) {
  for (const [name, t] of Object.entries(targets ?? {}))
    console.log(`target ${name} ${t.target}: ${t.met ? 'met' : 'MISSED'}`);
}

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

const scenarios = {};

if (runs('policy')) {
  const policy = await runPolicyBench({ Bench, lib, tables, rules, items });
  scenarios.policy = policy;
  printTable(
    'policy: authorize vs find-my-way find vs casbin enforceSync',
    policy.results,
    policy.ratios,
    policy.ratiosMean,
  );
  const c = policy.compile;
  c.coldMs = coldCompileMs;
  console.log(
    `table compile (compileTables(shippedSources), ${c.runs} runs after 3 warm-up): median ${c.medianMs} ms ` +
      `(min ${c.minMs}, p90 ${c.p90Ms}, max ${c.maxMs}; ${c.clock} clock), wall-clock median ${c.wallMedianMs} ms; ` +
      `first (cold) compile ${coldCompileMs} ms wall; ` +
      `createPolicy median ${c.createPolicyMedianMs} ms`,
  );
  console.log(
    `same-answer check: authorize matched ${policy.check.policyMatched}/${policy.check.requests}, ` +
      `find-my-way matched ${policy.check.routerMatched}/${policy.check.requests}, ` +
      `casbin allowed ${policy.check.casbinAllowed}/${policy.check.requests} (${policy.check.casbinPolicyLines} policy lines)`,
  );
  printTargets(policy.targets);
}

if (runs('limits')) {
  const file = new URL('./limits.mjs', import.meta.url);
  if (!existsSync(file)) {
    console.log('\n== limits ==\nlimits bench not present (bench/limits.mjs)');
    scenarios.limits = { present: false, note: 'limits bench not present' };
  } else {
    try {
      const mod = await import(file.href);
      if (typeof mod.runLimitsBench !== 'function')
        throw new Error('bench/limits.mjs exports no runLimitsBench');
      const limits = await mod.runLimitsBench({ Bench });
      scenarios.limits = limits;
      const results = limits?.results;
      const tabular =
        results !== null &&
        typeof results === 'object' &&
        Object.values(results).every((r) => typeof r?.opsPerSec === 'number');
      if (tabular) {
        const rows = Object.fromEntries(
          Object.entries(results).map(([k, r]) => [k, { nsPerOp: 1e9 / r.opsPerSec, ...r }]),
        );
        printTable('limits (figures as bench/limits.mjs returns them)', rows, limits.ratios);
        const rest = Object.fromEntries(
          Object.entries(limits).filter(([k]) => k !== 'results' && k !== 'ratios'),
        );
        if (Object.keys(rest).length > 0) console.log(JSON.stringify(rest));
      } else {
        console.log('\n== limits (bench/limits.mjs) ==');
        console.log(JSON.stringify(limits, null, 2));
      }
    } catch (error) {
      console.log(`\n== limits ==\nlimits bench failed: ${error?.stack ?? error}`);
      scenarios.limits = { present: true, error: String(error?.message ?? error) };
    }
  }
}

if (runs('stack')) {
  const stack = await runStackBench({ Bench, lib, tables, rules, items });
  scenarios.stack = stack;
  printTable(
    'stack: authorize + limiter admit/complete vs find-my-way + @casl/ability + rate-limiter-flexible',
    stack.results,
    stack.ratios,
    stack.ratiosMean,
  );
  console.log(stack.note);
  console.log(
    `admitted: tollgate ${stack.check.tollgateAdmitted}/${stack.check.requests}, ` +
      `rate-limiter-flexible ${stack.check.stackConsumed}/${stack.check.requests}; ` +
      `casl allowed ${stack.check.caslAllowed}, tollgate allowed ${stack.check.tollgateAllowed}`,
  );
  printTargets(stack.targets);
}

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

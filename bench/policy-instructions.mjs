// `npm run bench:instructions`: the policy's ops and its peers counted in CPU instructions per
// request (valgrind's cachegrind), a figure this shared 2-core machine does not move: the timed
// bench's ratios swing by a third between runs, the same op's count by well under 1%. Each op runs
// in its own process twice, with two counts; the difference of the totals over the difference of
// the counts is its cost per request (setup, compile and warm-up cancel out). Instructions are not
// time (cache misses and branches are not counted), so this sits beside `npm run bench`, not in
// place of it. Needs valgrind (`apt-get install valgrind`); about 3 minutes on 2 cores.
import { execFile, execFileSync } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CHILD = new URL('./instruction-ops.mjs', import.meta.url).pathname;
const FEW = 20_000;
const MANY = 120_000;

try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  console.error('bench:instructions: valgrind not found; install it (apt-get install valgrind)');
  process.exit(2);
}

async function instructionsOf(op, count) {
  const { stderr } = await run(
    'valgrind',
    [
      '--tool=cachegrind',
      '--cache-sim=no',
      '--cachegrind-out-file=/dev/null',
      'node',
      '--single-threaded',
      CHILD,
      op,
      String(count),
    ],
    { maxBuffer: 1 << 24 },
  );
  const refs = /I\s+refs:\s+([\d,]+)/.exec(stderr);
  if (refs === null) throw new Error(`bench:instructions: no instruction total for \`${op}\`:\n${stderr}`);
  return Number(refs[1].replaceAll(',', ''));
}

const ops = JSON.parse(execFileSync(process.execPath, [CHILD, '--list'], { encoding: 'utf8' }));
const jobs = ops.flatMap((op) => [FEW, MANY].map((count) => ({ op, count })));
const totals = new Map();
let next = 0;
const worker = async () => {
  while (next < jobs.length) {
    const job = jobs[next++];
    totals.set(`${job.op} ${job.count}`, await instructionsOf(job.op, job.count));
  }
};
const started = Date.now();
await Promise.all(Array.from({ length: Math.max(1, os.cpus().length) }, worker));

const perRequest = new Map(
  ops.map((op) => [op, (totals.get(`${op} ${MANY}`) - totals.get(`${op} ${FEW}`)) / (MANY - FEW)]),
);
console.log(`instructions per request over the bench mix (cachegrind; ${MANY} - ${FEW} requests):`);
for (const [op, count] of perRequest)
  console.log(`  ${op.padEnd(44)} ${Math.round(count).toLocaleString('en')}`);
const FMW = 'find-my-way find';
console.log("as speed ratios to find-my-way (its instructions over the op's):");
for (const op of ops)
  if (op !== FMW) console.log(`  ${op.padEnd(44)} ${(perRequest.get(FMW) / perRequest.get(op)).toFixed(2)}x`);
console.log(`${Math.round((Date.now() - started) / 1000)} s`);

// Scenario "sim": simulated requests per second of wall time (one core) for one greedy caller and
// for 100 callers, and the peak memory of a one-year run of 100 sparse callers: memory must not
// grow with the length of the simulation (series are aggregated as the run goes).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { simulate } from '../dist/sim.js';

const EVENTS = [{ endpoint: 'GET /repos/{owner}/{repo}/issues/events', weight: 1 }];

/** One greedy caller: 20 workers, 30 ms answers, an hour (2.4 M requests, most refused). */
const oneGreedy = (hours) => ({
  seed: 4,
  durationSeconds: hours * 3600,
  callers: [
    {
      name: 'greedy',
      token: { kind: 'fine-grained', user: 'greedy' },
      workers: 20,
      behaviour: 'greedy',
      mix: EVENTS,
      latencyMs: 30,
    },
  ],
});

/** 100 callers, each its own user: greedy, polite and octokit clients, 2 workers, 10 minutes. */
const hundred = {
  seed: 5,
  durationSeconds: 600,
  callers: Array.from({ length: 100 }, (_, i) => ({
    name: `c${i}`,
    token: { kind: 'fine-grained', user: `user${i}` },
    workers: 2,
    behaviour: ['greedy', 'polite', 'octokit'][i % 3],
    mix: [...EVENTS, { endpoint: 'POST /repos/{owner}/{repo}/issues', weight: 0.1 }],
    latencyMs: { exponential: 60 },
  })),
};

/** 100 sparse callers over a year: a request every 10 minutes each (5.3 M in all). */
const sparseYear = {
  seed: 6,
  durationSeconds: 365 * 86_400,
  callers: Array.from({ length: 100 }, (_, i) => ({
    name: `s${i}`,
    token: { kind: 'app-installation', installation: String(i) },
    behaviour: 'polite',
    rate: 1 / 600,
    mix: EVENTS,
  })),
};

function perSecond(scenario) {
  const started = performance.now();
  const report = simulate(scenario);
  return { requests: report.requests, rate: report.requests / ((performance.now() - started) / 1000) };
}

/** Peak RSS and heap above what the process held before the run, sampled as the run reports progress. */
function peakOf(scenario) {
  globalThis.gc?.();
  const before = process.memoryUsage();
  let rss = 0;
  let heap = 0;
  const sample = () => {
    const now = process.memoryUsage();
    rss = Math.max(rss, now.rss);
    heap = Math.max(heap, now.heapUsed - before.heapUsed);
  };
  const started = performance.now();
  const report = simulate(scenario, undefined, undefined, { onProgress: sample });
  sample();
  return {
    requests: report.requests,
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
    peakRssMb: Number((rss / 2 ** 20).toFixed(1)),
    peakHeapGrowthMb: Number((heap / 2 ** 20).toFixed(1)),
  };
}

export function runSimBench() {
  simulate(oneGreedy(0.25)); // warm
  const runs = [0, 1, 2].map(() => perSecond(oneGreedy(1))).sort((a, b) => a.rate - b.rate);
  const many = perSecond(hundred);
  const year = yearInItsOwnProcess();
  return {
    requestsPerSecond: Math.round(runs[1].rate),
    requestsPerRun: runs[1].requests,
    hundredCallers: { requestsPerSecond: Math.round(many.rate), requests: many.requests },
    oneYearHundredSparse: year,
  };
}

/**
 * The one-year run in a process of its own, so its peak RSS is the simulator's alone, not what the
 * scenarios before it left in this process (`npm run bench` runs them all in one).
 */
function yearInItsOwnProcess() {
  const child = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), 'year'], {
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`the one-year simulation failed: ${child.stderr}`);
  return JSON.parse(child.stdout);
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'year')
  console.log(JSON.stringify(peakOf(sparseYear)));

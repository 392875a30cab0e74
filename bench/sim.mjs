// Scenario "sim": simulated requests per second of wall time (one core), and the heap after runs
// of one and of four virtual hours: memory must not grow with the length of the simulation.
import { simulate } from '../dist/sim.js';

const scenario = (hours) => ({
  seed: 4,
  durationSeconds: hours * 3600,
  callers: [
    {
      name: 'greedy',
      token: { kind: 'fine-grained', user: 'greedy' },
      workers: 20,
      behaviour: 'greedy',
      mix: [{ endpoint: 'GET /repos/{owner}/{repo}/issues/events', weight: 1 }],
      latencyMs: 30,
    },
    {
      name: 'sync',
      token: { kind: 'app-installation', installation: '42', repositoriesCount: 50, usersCount: 30 },
      workers: 8,
      behaviour: 'polite',
      mix: [{ endpoint: 'GET /repos/{owner}/{repo}/issues/events', weight: 1 }],
      latencyMs: 120,
    },
  ],
});

function heapAfter(hours) {
  globalThis.gc?.();
  const before = process.memoryUsage().heapUsed;
  let peak = 0;
  const report = simulate(scenario(hours), undefined, undefined, {
    onProgress: () => {
      peak = Math.max(peak, process.memoryUsage().heapUsed - before);
    },
  });
  return { requests: report.requests, peakMb: Number((peak / 2 ** 20).toFixed(1)) };
}

export function runSimBench() {
  simulate(scenario(0.25)); // warm
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const report = simulate(scenario(1));
    runs.push(report.requests / ((performance.now() - started) / 1000));
  }
  runs.sort((a, b) => a - b);
  const one = heapAfter(1);
  const four = heapAfter(4);
  return {
    requestsPerSecond: Math.round(runs[1]),
    requestsPerRun: simulate(scenario(1)).requests,
    heapGrowthMb: { oneHour: one.peakMb, fourHours: four.peakMb },
  };
}

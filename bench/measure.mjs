// How the in-process scenarios time their tasks: the bench clock (CPU time by default), batched
// and interleaved rounds over the request mix, and the ratios between tasks.

/**
 * The bench's clock, in ms. Default `cpu`: this process's CPU time (`process.cpuUsage`, user +
 * system, 1 us resolution), which a shared machine's other processes do not inflate: on a busy
 * 2-core box wall-clock batch times swing 3-4x with the neighbours' load. `BENCH_CLOCK=wall` uses
 * `performance.now()`. On an idle machine the two agree (the measured code is single-threaded;
 * the CPU time also counts V8's GC and compiler threads, which only makes the figures lower).
 */
export function benchClock() {
  if (process.env.BENCH_CLOCK === 'wall') return { name: 'wall', now: () => performance.now() };
  return {
    name: 'cpu',
    now: () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    },
  };
}

/** Sink for every task's results: printed at the end so nothing is dead code. */
export const sink = { value: 0 };

/**
 * Runs tasks with tinybench, each call of a task function handling `batch` consecutive requests of
 * the mix (one timer read per batch, not per request: a timer read costs about as much as a route
 * lookup). `run(start, count)` returns a number folded into the checksum; it may return a promise.
 *
 * The tasks run in `rounds` interleaved rounds (order rotated each round), so a change of machine
 * load hits every task alike; each round's figure is the median batch time (robust to preemption on
 * a shared machine), and a task's headline is its best round. Every round's figure is kept.
 */
export async function measure(Bench, { time, warmupTime, tasks, size, rounds = 3 }) {
  const now = benchClock().now;
  const cursors = tasks.map(() => 0);
  const perRound = tasks.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time, warmupTime, warmupIterations: 8, iterations: 16, now });
    const order = tasks.map((_, i) => (i + round) % tasks.length);
    for (const i of order) {
      const task = tasks[i];
      const batch = task.batch;
      const fn = task.async
        ? async () => {
            sink.value = (sink.value + (await task.run(cursors[i], batch))) % 1e15;
            cursors[i] = (cursors[i] + batch) % size;
          }
        : () => {
            sink.value = (sink.value + task.run(cursors[i], batch)) % 1e15;
            cursors[i] = (cursors[i] + batch) % size;
          };
      bench.add(task.name, fn, { beforeAll: () => globalThis.gc?.() });
    }
    await bench.run();
    for (const t of bench.tasks) {
      const i = tasks.findIndex((task) => task.name === t.name);
      const r = t.result;
      if (r === undefined || r.error !== undefined) throw r?.error ?? new Error(`${t.name}: no result`);
      const batch = tasks[i].batch;
      perRound[i].push({
        medianOpsPerSec: Math.round((batch * 1000) / r.latency.p50),
        meanOpsPerSec: Math.round((batch * 1000) / r.latency.mean),
        rmePercent: Number(r.latency.rme.toFixed(2)),
        samples: r.latency.samples.length,
      });
    }
  }
  const results = {};
  for (const [i, task] of tasks.entries()) {
    const best = perRound[i].reduce((a, b) => (b.medianOpsPerSec > a.medianOpsPerSec ? b : a));
    results[task.name] = {
      opsPerSec: best.medianOpsPerSec,
      nsPerOp: Number((1e9 / best.medianOpsPerSec).toFixed(1)),
      meanOpsPerSec: best.meanOpsPerSec,
      meanNsPerOp: Number((1e9 / best.meanOpsPerSec).toFixed(1)),
      rmePercent: best.rmePercent,
      samples: perRound[i].reduce((n, r) => n + r.samples, 0),
      batch: task.batch,
      rounds: perRound[i].map((r) => r.medianOpsPerSec),
    };
  }
  return results;
}

/** `a / b` on the headline (median-based) ops/s and on the mean-based ops/s. */
export function ratioOf(results, a, b, digits = 2) {
  const round = (x) => Number(x.toFixed(digits));
  return {
    median: round(results[a].opsPerSec / results[b].opsPerSec),
    mean: round(results[a].meanOpsPerSec / results[b].meanOpsPerSec),
  };
}

/** Splits `{ name: { median, mean } }` into the headline ratios and the mean-based ones. */
export function splitRatios(pairs) {
  const ratios = {};
  const ratiosMean = {};
  for (const [name, r] of Object.entries(pairs)) {
    ratios[name] = r.median;
    ratiosMean[name] = r.mean;
  }
  return { ratios, ratiosMean };
}

/**
 * A virtual clock for the limiter, from 2026-01-01, `stepMs` later at every reading. Its time is
 * kept in a typed array: a number kept in a closure variable is a new 16-byte heap number at every
 * write (V8), which the bytes figure would count as the limiter's; a server's `Date.now` reads the
 * time without allocating.
 */
export function virtualClock(stepMs) {
  const time = new Float64Array([Date.UTC(2026, 0, 1)]);
  return () => (time[0] += stepMs);
}

// The policy scenario's compile timing (bench/policy.mjs): the shipped tables compiled and a policy
// created, timed apart from the hot path.
import { benchClock } from './measure.mjs';

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Table compile: `compileTables(shippedSources)` and `createPolicy`, median of `runs`, on the bench clock and on the wall clock. */
export function timeCompile(lib, runs = 50) {
  const clock = benchClock();
  const compile = [];
  const wall = [];
  const create = [];
  let issues = 0;
  for (let i = 0; i < runs + 3; i++) {
    const w0 = performance.now();
    const t0 = clock.now();
    const { tables, issues: found } = lib.compileTables(lib.shippedSources);
    const t1 = clock.now();
    const w1 = performance.now();
    lib.createPolicy(tables);
    const t2 = clock.now();
    issues += found.length;
    if (i < 3) continue; // the first runs include loading and optimising the compiler itself
    compile.push(t1 - t0);
    wall.push(w1 - w0);
    create.push(t2 - t1);
  }
  const sorted = [...compile].sort((a, b) => a - b);
  const ms = (x) => Number(x.toFixed(2));
  return {
    runs,
    clock: clock.name,
    medianMs: ms(median(compile)),
    minMs: ms(sorted[0]),
    p90Ms: ms(sorted[Math.floor(sorted.length * 0.9)]),
    maxMs: ms(sorted[sorted.length - 1]),
    wallMedianMs: ms(median(wall)),
    createPolicyMedianMs: Number(median(create).toFixed(3)),
    issues,
    targetMs: 30,
  };
}

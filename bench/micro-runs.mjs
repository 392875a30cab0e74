// The in-process scenarios (policy, limits, stack), each run RUNS times in this one process so every
// ratio can be reported as min / median / max; the task tables are printed for the last run.
import { printTable } from './bench-report.mjs';
import { runPolicyBench } from './policy.mjs';
import { runStackBench } from './stack.mjs';

/** The targets for the in-process ratios (issue 21). */
export const MICRO_TARGETS = {
  'policy: authorize / find-my-way': { atLeast: 1.5 },
  'limits: tollgateVsRateLimiterFlexible': { atLeast: 2, on: 'min' },
  'stack: tollgate / stack': { atLeast: 3 },
};

function printCompile(policy, coldCompileMs) {
  const c = policy.compile;
  c.coldMs = coldCompileMs;
  console.log(
    `table compile (compileTables(shippedSources), ${c.runs} runs after 3 warm-up): median ${c.medianMs} ms ` +
      `(min ${c.minMs}, p90 ${c.p90Ms}, max ${c.maxMs}; ${c.clock} clock), wall-clock median ${c.wallMedianMs} ms; ` +
      `first (cold) compile ${coldCompileMs} ms wall; createPolicy median ${c.createPolicyMedianMs} ms`,
  );
  console.log(
    `same-answer check: authorize matched ${policy.check.policyMatched}/${policy.check.requests}, ` +
      `find-my-way matched ${policy.check.routerMatched}/${policy.check.requests}, ` +
      (policy.check.sameWorkMatched === undefined
        ? ''
        : `find-my-way + a same-shape answer matched ${policy.check.sameWorkMatched}/${policy.check.requests}, `) +
      `casbin allowed ${policy.check.casbinAllowed}/${policy.check.requests} (${policy.check.casbinPolicyLines} policy lines)`,
  );
  return c;
}

function printStack(stack) {
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
}

/**
 * Runs the wanted in-process scenarios `runs` times. Returns the last run's results per scenario,
 * every ratio's figures per run (`ratioRuns`) and the stack's task (for the allocation count).
 */
export async function runMicroScenarios({ Bench, lib, tables, rules, items, wants, runs, coldCompileMs }) {
  const scenarios = {};
  const ratioRuns = {};
  const record = (scenario, ratios) => {
    for (const [name, value] of Object.entries(ratios ?? {})) {
      const key = `${scenario}: ${name}`;
      ratioRuns[key] = [...(ratioRuns[key] ?? []), value];
    }
  };
  let lastStack = null;
  const limitsModule = wants('limits') ? await import('./limits.mjs') : null;
  for (let run = 1; run <= runs; run++) {
    const last = run === runs;
    console.log(`\n---- run ${run} of ${runs} ----`);
    if (wants('policy')) {
      const policy = await runPolicyBench({ Bench, lib, tables, rules, items, compile: run === 1 });
      record('policy', policy.ratios);
      console.log(`policy ratios: ${JSON.stringify(policy.ratios)}`);
      if (run === 1) scenarios.compile = printCompile(policy, coldCompileMs);
      if (last) {
        printTable(
          'policy: authorize vs find-my-way find vs casbin enforceSync',
          policy.results,
          policy.ratios,
          policy.ratiosMean,
        );
        scenarios.policy = policy;
      }
    }
    if (limitsModule !== null) {
      const limits = await limitsModule.runLimitsBench({ Bench, time: 2000, rounds: 2 });
      record('limits', limits.ratios);
      console.log(`limits ratios: ${JSON.stringify(limits.ratios)}`);
      if (last) {
        const rows = Object.fromEntries(
          Object.entries(limits.results).map(([k, r]) => [k, { nsPerOp: 1e9 / r.opsPerSec, ...r }]),
        );
        printTable(
          'limits: admit + complete (every bucket) vs rate-limiter-flexible consume (one bucket)',
          rows,
          limits.ratios,
        );
        scenarios.limits = limits;
      }
    }
    if (wants('stack')) {
      const stack = await runStackBench({ Bench, lib, tables, rules, items });
      record('stack', stack.ratios);
      console.log(`stack ratios: ${JSON.stringify(stack.ratios)}`);
      if (last) {
        printStack(stack);
        scenarios.stack = stack;
        lastStack = stack;
      }
    }
  }
  return { scenarios, ratioRuns, lastStack };
}

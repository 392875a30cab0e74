/**
 * `--recommend`: for every caller, the pace that finishes its work soonest without a single
 * refusal (or, without work, the pace it can sustain), planned with the other callers of its
 * identity, checked by a run, compared with a polite client at full speed; and, when asked, how
 * many users or installations finish the work in time.
 */
import { defaultLimits } from '../limits/default-limits.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import type { PolicyTables } from '../policy/tables.js';
import { expandScenario } from './expand-scenario.js';
import { adviceFor } from './plan-advice.js';
import { howMany } from './plan-how-many.js';
import { planScenario, type RunScenario } from './plan-scenario.js';
import { windowedPlans } from './plan-windowed.js';
import type { PlannerAdvice } from './planner-types.js';
import type { Scenario } from './scenario.js';
import { simulate } from './simulate.js';

/**
 * The 0.1 shape of a recommendation, kept for `textReport`'s second argument: every
 * `PlannerAdvice` is one.
 * @example
 * import type { Recommendation } from './recommend.js';
 * const old: Recommendation = { rate: 1.32, workers: 1, workDoneAt: 151 };
 */
export type Recommendation = Pick<PlannerAdvice, 'rate' | 'workers' | 'workDoneAt'>;

/** Runs a how-many answer takes, about: two sizes, each a plan of two runs and its windowed run, and a step. */
const PER_ANSWER = 8;

/** What `recommend` may be told. */
export interface RecommendOptions {
  readonly limits?: LimitsConfig;
  /** Also answer "how many users or installations finish each caller's work within this many seconds". */
  readonly withinSeconds?: number;
  /** The engine's cap on simulated requests per run (`SimulateOptions.requestCap`). */
  readonly requestCap?: number;
  /** Called now and then with the share of the planning done (0 to 1), for a progress bar. */
  readonly onProgress?: (done: number) => void;
}

/**
 * Advice for every caller of `scenario` (pools and schedules expanded: one per caller the report
 * lists), in the report's order. Callers that share an identity are planned together. The plan is
 * checked by a run and slowed until that run refuses nothing (`refused` says otherwise when even
 * the slowest try was refused).
 * @example
 * import { shippedTables } from 'tollgate';
 * import { recommend } from './recommend.js';
 * const scenario = { seed: 1, callers: [{ name: 'importer', token: { kind: 'fine-grained' as const, user: 'i' }, work: 200, behaviour: 'polite' as const, mix: [{ endpoint: 'POST /repos/{owner}/{repo}/issues', weight: 1 }], latencyMs: 200 }] };
 * const [advice] = recommend(scenario, shippedTables());
 * advice?.binding?.rule; // 'content_per_minute'
 */
export function recommend(
  scenario: Scenario,
  tables: PolicyTables,
  options: RecommendOptions = {},
): PlannerAdvice[] {
  // The run's limits as the engine reads them: the scenario's own (`limits`, `--limits`) first.
  const config = scenario.limits ?? options.limits ?? defaultLimits();
  const run: RunScenario = (one, onProgress) => {
    // Short runs never call back from inside: their start and end are progress too.
    onProgress(0);
    const report = simulate(one, tables, config, {
      onProgress,
      ...(options.requestCap === undefined ? {} : { requestCap: options.requestCap }),
    });
    onProgress(1);
    return report;
  };
  const expanded = expandScenario(scenario).scenario;
  const asked =
    options.withinSeconds === undefined ? [] : scenario.callers.filter((c) => c.work !== undefined);
  // Stages: the plan's runs (about 2), the polite run, the windowed plans' run, then the how-many
  // searches (about 8 runs each).
  const stages = 4 + PER_ANSWER * asked.length;
  let stage = 0;
  const progress = (share: number) => options.onProgress?.(Math.min(1, (stage + share) / stages));
  const plan = planScenario(expanded, tables, config, run, (done) => progress(done * 2));
  stage = 2;
  // The polite client at full speed: the callers' own workers, no pacing, the seed's client rules.
  const polite = run(
    {
      ...plan.planned,
      callers: expanded.callers.map((spec) => {
        const { rate: _rate, ...unpaced } = spec;
        return { ...unpaced, behaviour: 'polite' as const };
      }),
    },
    progress,
  );
  stage = 3;
  const windowed = windowedPlans(expanded, plan, config, (one) => run(one, progress));
  stage = 4;
  const answers = new Map(
    asked.map((spec) => {
      let runs = 0;
      const answer = howMany(scenario, spec, options.withinSeconds!, tables, config, (one) => {
        const report = run(one, (done) => progress(Math.min(PER_ANSWER - 0.01, runs + done)));
        runs++;
        return report;
      });
      stage += PER_ANSWER;
      return [spec.name, answer] as const;
    }),
  );
  options.onProgress?.(1);
  const origins = expandScenario(scenario).origins;
  return expanded.callers.map((_, i) => {
    const identity = plan.identities.find((p) => p.callers.includes(i))!;
    return adviceFor(
      i,
      plan,
      polite,
      answers.get(origins[i]!.origin) ?? null,
      windowed.get(identity.identity)?.get(i),
    );
  });
}

/**
 * Plans every caller of a scenario from the rules' arithmetic, identity by identity, then checks
 * the plan by running it: an identity whose callers met a refusal is planned again a little
 * slower, until the run refuses nothing.
 */
import { identityOf } from '../limits/identity.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import type { PolicyTables } from '../policy/tables.js';
import { type GroupPlan, type PlanMember, planGroup, planMember } from './plan-identity.js';
import { type Ceiling, ceilingsOf } from './plan-units.js';
import type { CallerSpec, Scenario } from './scenario.js';
import type { SimulationReport } from './simulate.js';

/** Runs a scenario (the engine, with the planner's tables and limits), reporting progress 0 to 1. */
export type RunScenario = (scenario: Scenario, onProgress: (done: number) => void) => SimulationReport;

/** The callers of one identity and their plan. */
export interface PlannedIdentity {
  readonly identity: string;
  /** Indexes into the expanded scenario's callers. */
  readonly callers: readonly number[];
  readonly ceilings: readonly Ceiling[];
  readonly members: readonly PlanMember[];
  readonly plan: GroupPlan;
  /** Refusals its callers met in the last check run. */
  readonly refused: number;
}

/** A scenario's plan and the run that checked it. */
export interface ScenarioPlan {
  readonly identities: readonly PlannedIdentity[];
  /** The planned scenario as it was checked: the callers with the planned rate and workers, polite. */
  readonly planned: Scenario;
  readonly check: SimulationReport;
  readonly rounds: number;
}

/** Check runs at most; each slows a refused identity by `SLOWER`. */
export const MAX_ROUNDS = 8;
const SLOWER = 0.97;

/**
 * Down to 4 significant digits: what the advice prints is what was checked, and rounding up
 * could cross a ceiling.
 * @example
 * import { roundDown } from './plan-scenario.js';
 * roundDown(1.94444); // 1.944
 */
export function roundDown(value: number): number {
  if (!Number.isFinite(value) || value <= 0) return value;
  const scale = 10 ** (3 - Math.floor(Math.log10(value)));
  return Math.floor(value * scale * (1 + 1e-12)) / scale;
}

/**
 * A caller as a plan runs it: polite, with the planned workers, paced at the rate (rounded as the
 * advice prints it) unless it sends as fast as answers come.
 * @example
 * // planned(spec, 1.3245, 1, false) -> { ...spec, behaviour: 'polite', workers: 1, rate: 1.324 }
 */
export function planned(spec: CallerSpec, rate: number, workers: number, unpaced: boolean): CallerSpec {
  const { rate: _stated, ...rest } = spec;
  return { ...rest, behaviour: 'polite', workers, ...(unpaced ? {} : { rate: roundDown(rate) }) };
}

/** The latest end of a caller's own interval, or 0. */
const startOf = (spec: CallerSpec) => spec.startSeconds ?? 0;

/**
 * Plans `scenario` (pools and schedules already expanded) and checks the plan by running it with
 * `run`, at most `MAX_ROUNDS` times.
 * @example
 * // planScenario(expanded, tables, limits, run, onProgress).identities[0].plan.binding
 * // -> { kind: 'ceiling', ceiling: { rule: 'content_per_minute', limit: 80, windowSeconds: 60, ... } }
 */
export function planScenario(
  scenario: Scenario,
  tables: PolicyTables,
  config: LimitsConfig,
  run: RunScenario,
  onProgress: (done: number) => void = () => {},
): ScenarioPlan {
  const groups = new Map<string, number[]>();
  scenario.callers.forEach((spec, i) => {
    const key = identityOf(spec.token, config).key;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const entries = [...groups].map(([identity, callers]) => {
    const ceilings = ceilingsOf(scenario.callers[callers[0]!]!.token, config);
    const members: PlanMember[] = callers.map((i) =>
      planMember(scenario.callers[i]!, ceilings, tables, config),
    );
    return { identity, callers, ceilings, members, scale: 1 };
  });
  const concurrency = config.secondary.concurrency.limit;
  let identities: PlannedIdentity[] = [];
  let check: SimulationReport | undefined;
  let plannedScenario = scenario;
  let rounds = 0;
  for (; rounds < MAX_ROUNDS; ) {
    const plans = entries.map((e) => planGroup(e.members, e.ceilings, concurrency, e.scale));
    const callers = [...scenario.callers];
    let latest = 0;
    entries.forEach((e, g) => {
      e.callers.forEach((i, m) => {
        const p = plans[g]!.members[m]!;
        callers[i] = planned(scenario.callers[i]!, p.rate, p.workers, p.unpaced);
        latest = Math.max(latest, startOf(callers[i]!) + (plans[g]!.finish ?? 0));
      });
    });
    // A plan slower than the scenario's duration is still run to its end, so its finish is known.
    const duration =
      scenario.durationSeconds === undefined
        ? undefined
        : Math.max(scenario.durationSeconds, Math.ceil(latest * 1.1));
    plannedScenario = {
      ...scenario,
      ...(duration === undefined ? {} : { durationSeconds: duration }),
      callers,
    };
    const round = rounds;
    // Rounds are few and their number unknown: each takes half of what is left.
    check = run(plannedScenario, (done) => onProgress(1 - 0.5 ** (round + done)));
    rounds++;
    const report = check;
    identities = entries.map((e, g) => ({
      identity: e.identity,
      callers: e.callers,
      ceilings: e.ceilings,
      members: e.members,
      plan: plans[g]!,
      refused: e.callers.reduce(
        (total, i) => total + Object.values(report.callers[i]!.denied).reduce((a, b) => a + (b ?? 0), 0),
        0,
      ),
    }));
    const dirty = identities.filter((p) => p.refused > 0);
    if (dirty.length === 0) break;
    for (const p of dirty) entries[identities.indexOf(p)]!.scale *= SLOWER;
  }
  onProgress(1);
  return { identities, planned: plannedScenario, check: check!, rounds };
}

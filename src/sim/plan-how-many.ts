/**
 * "How many users or installations do I need to finish W requests within T?": the least pool whose
 * members, each planned refusal-free, finish in time. The rules' arithmetic finds the candidate;
 * runs of the candidate (finishes) and of one fewer (does not) confirm it.
 */
import { identityOf } from '../limits/identity.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import type { PolicyTables } from '../policy/tables.js';
import { expandScenario } from './expand-scenario.js';
import { planGroup, planMember } from './plan-identity.js';
import { planScenario, type RunScenario } from './plan-scenario.js';
import { ceilingsOf } from './plan-units.js';
import type { HowMany } from './planner-types.js';
import { type Pool, poolSize, USER_KINDS } from './pool.js';
import type { CallerSpec, Scenario } from './scenario.js';

/** Pools of at most this many members are searched. */
export const MOST_MEMBERS = 1000;
/** Confirming runs at most, on either side of the arithmetic's answer. */
const MOST_STEPS = 6;

function pooled(spec: CallerSpec, size: number): CallerSpec {
  const pool: Pool =
    spec.pool !== undefined && 'users' in spec.pool
      ? {
          users: size,
          ...(spec.pool.tokensPerUser === undefined ? {} : { tokensPerUser: spec.pool.tokensPerUser }),
        }
      : USER_KINDS.includes(spec.token.kind)
        ? { users: size }
        : { installations: size };
  return { ...spec, pool };
}

/** The arithmetic finish of `size` members (the slowest identity), each planned alone. */
function arithmeticFinish(
  scenario: Scenario,
  spec: CallerSpec,
  size: number,
  tables: PolicyTables,
  config: LimitsConfig,
): number {
  const { scenario: expanded } = expandScenario({ ...scenario, callers: [pooled(spec, size)] });
  const groups = new Map<string, CallerSpec[]>();
  for (const one of expanded.callers) {
    const key = identityOf(one.token, config).key;
    groups.set(key, [...(groups.get(key) ?? []), one]);
  }
  let finish = 0;
  for (const members of groups.values()) {
    const ceilings = ceilingsOf(members[0]!.token, config);
    const plan = planGroup(
      members.map((m) => planMember(m, ceilings, tables, config)),
      ceilings,
      config.secondary.concurrency.limit,
    );
    finish = Math.max(finish, plan.finish ?? 0);
  }
  return finish;
}

/**
 * For caller `spec` of `scenario` (a user or installation token with `work`): the least number of
 * users or installations that finishes its work within `withinSeconds`, planned and run. Null for
 * a caller without work or of another kind.
 * @example
 * // howMany(scenario, spec, 3600, tables, limits, run)
 * // -> { unit: 'installations', work: 20000, withinSeconds: 3600, count: 3, workDoneAt: 3390, fewerWorkDoneAt: 5143, searchedUpTo: 1000 }
 */
export function howMany(
  scenario: Scenario,
  spec: CallerSpec,
  withinSeconds: number,
  tables: PolicyTables,
  config: LimitsConfig,
  run: RunScenario,
): HowMany | null {
  const work = spec.work;
  const kind = spec.token.kind;
  if (work === undefined || !(USER_KINDS.includes(kind) || kind === 'app-installation')) return null;
  const unit = poolSize(pooled(spec, 1).pool!).unit;
  const tokens = poolSize(pooled(spec, 1).pool!).tokensPerMember;
  const most = Math.max(1, Math.min(MOST_MEMBERS, Math.floor(work / tokens)));
  const fits = (size: number) => arithmeticFinish(scenario, spec, size, tables, config) <= withinSeconds;
  // Doubling, then halving the gap: the finish falls as members are added.
  let high = 1;
  while (high < most && !fits(high)) high = Math.min(most, high * 2);
  let low = Math.floor(high / 2);
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (fits(middle)) high = middle;
    else low = middle;
  }
  const finishOf = (size: number): number | null => {
    if (size < 1) return null;
    const { scenario: expanded } = expandScenario({ ...scenario, callers: [pooled(spec, size)] });
    const { check } = planScenario(expanded, tables, config, run);
    const done = check.callers.map((c) => c.workDoneAt);
    // From the caller's own start: "within T" counts from when the job begins.
    return done.some((d) => d === null)
      ? null
      : Math.max(...(done as number[])) - (spec.schedule?.start ?? 0);
  };
  const inTime = (finish: number | null) => finish !== null && finish <= withinSeconds;
  let count = high;
  let finish = finishOf(count);
  // The runs have the last word: the arithmetic's margins can put it one or two members off.
  for (let step = 0; step < MOST_STEPS && !inTime(finish) && count < most; step++) finish = finishOf(++count);
  if (!inTime(finish))
    return {
      unit,
      work,
      withinSeconds,
      count: null,
      workDoneAt: null,
      fewerWorkDoneAt: null,
      searchedUpTo: most,
    };
  let fewer = finishOf(count - 1);
  for (let step = 0; step < MOST_STEPS && count > 1 && inTime(fewer); step++) {
    count--;
    finish = fewer;
    fewer = finishOf(count - 1);
  }
  return { unit, work, withinSeconds, count, workDoneAt: finish, fewerWorkDoneAt: fewer, searchedUpTo: most };
}

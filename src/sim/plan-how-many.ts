/**
 * "How many users or installations do I need to finish W requests within T?": the least pool
 * whose members, each following its soonest refusal-free plan (the steady pace, or the windowed
 * plan where the report offers one), finish in time. The rules' arithmetic finds the candidate;
 * runs confirm it: the answer is a count whose run finishes in time and whose one fewer does not.
 */
import { identityOf } from '../limits/identity.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import type { PolicyTables } from '../policy/tables.js';
import { expandScenario } from './expand-scenario.js';
import { planGroup, planMember } from './plan-identity.js';
import { planScenario, type RunScenario } from './plan-scenario.js';
import { ceilingsOf } from './plan-units.js';
import { windowedFinish, windowedPlans } from './plan-windowed.js';
import type { HowMany } from './planner-types.js';
import { type Pool, poolSize, USER_KINDS } from './pool.js';
import type { CallerSpec, Scenario } from './scenario.js';

/** Pools of at most this many members are searched. */
export const MOST_MEMBERS = 1000;

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

/** The arithmetic finish of `size` members (the slowest identity), each planned alone, steady or windowed. */
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
  const concurrency = config.secondary.concurrency.limit;
  let finish = 0;
  for (const callers of groups.values()) {
    const ceilings = ceilingsOf(callers[0]!.token, config);
    const members = callers.map((m) => planMember(m, ceilings, tables, config));
    const plan = planGroup(members, ceilings, concurrency);
    const steady = plan.finish ?? Number.POSITIVE_INFINITY;
    const windowed = windowedFinish({ ceilings, members, plan }, concurrency) ?? Number.POSITIVE_INFINITY;
    finish = Math.max(finish, Math.min(steady, windowed));
  }
  return finish;
}

/** A pool as run: when its slowest member's soonest refusal-free plan finished, and which plan that was. */
interface PoolFinish {
  readonly finish: number | null;
  readonly plan: 'steady' | 'windowed';
}

/**
 * Plans a pool of `size` as `--recommend` does (the steady plan checked by runs, then the windowed
 * plans run), each member following whichever of its refusal-free plans is done sooner.
 */
function runPool(
  scenario: Scenario,
  spec: CallerSpec,
  size: number,
  tables: PolicyTables,
  config: LimitsConfig,
  run: RunScenario,
): PoolFinish {
  const { scenario: expanded } = expandScenario({ ...scenario, callers: [pooled(spec, size)] });
  const plan = planScenario(expanded, tables, config, run);
  const windowed = windowedPlans(expanded, plan, config, (one) => run(one, () => {}));
  let finish: number | null = 0;
  let used: PoolFinish['plan'] = 'steady';
  expanded.callers.forEach((_, i) => {
    const identity = plan.identities.find((p) => p.callers.includes(i))!;
    const steady = plan.check.callers[i]!.workDoneAt;
    const sooner = windowed.get(identity.identity)?.get(i)?.workDoneAt;
    const best = sooner !== undefined && (steady === null || sooner < steady) ? sooner : steady;
    if (best !== steady) used = 'windowed';
    finish = finish === null || best === null ? null : Math.max(finish, best);
  });
  // From the caller's own start: "within T" counts from when the job begins.
  return { finish: finish === null ? null : finish - (spec.schedule?.start ?? 0), plan: used };
}

/**
 * For caller `spec` of `scenario` (a user or installation token with `work`): the least number of
 * users or installations that finishes its work within `withinSeconds`, planned and run, one fewer
 * run too. Null for a caller without work or of another kind.
 * @example
 * // howMany(scenario, spec, 3600, tables, limits, run)
 * // -> { unit: 'installations', work: 20000, withinSeconds: 3600, count: 3, plan: 'steady', workDoneAt: 3390, fewerWorkDoneAt: 5143, searchedUpTo: 1000 }
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
  let candidate = 1;
  while (candidate < most && !fits(candidate)) candidate = Math.min(most, candidate * 2);
  let below = Math.floor(candidate / 2);
  while (candidate - below > 1) {
    const middle = Math.floor((below + candidate) / 2);
    if (fits(middle)) candidate = middle;
    else below = middle;
  }
  // The runs have the last word: the arithmetic's margins can put it a member or more off.
  const runs = new Map<number, PoolFinish>();
  const ran = (size: number): PoolFinish => {
    const known = runs.get(size);
    if (known !== undefined) return known;
    const done = runPool(scenario, spec, size, tables, config, run);
    runs.set(size, done);
    return done;
  };
  const inTime = (size: number) => {
    const finish = ran(size).finish;
    return finish !== null && finish <= withinSeconds;
  };
  // INVARIANT: `late` (0: no pool) does not finish in time when run, `enough` (once found) does.
  // Steps double away from the candidate, then the gap is halved: at most about 2·log2(most) sizes.
  let late = 0;
  let enough: number | null = null;
  if (inTime(candidate)) {
    enough = candidate;
    for (let step = 1; enough - late > 1; step *= 2) {
      const size = Math.max(late + 1, enough - step);
      if (!inTime(size)) {
        late = size;
        break;
      }
      enough = size;
    }
  } else {
    late = candidate;
    for (let step = 1; late < most && enough === null; step *= 2) {
      const size = Math.min(most, late + step);
      if (inTime(size)) enough = size;
      else late = size;
    }
  }
  if (enough === null)
    return {
      unit,
      work,
      withinSeconds,
      count: null,
      plan: null,
      workDoneAt: null,
      fewerWorkDoneAt: null,
      searchedUpTo: most,
    };
  while (enough - late > 1) {
    const middle = Math.floor((late + enough) / 2);
    if (inTime(middle)) enough = middle;
    else late = middle;
  }
  const chosen = ran(enough);
  return {
    unit,
    work,
    withinSeconds,
    count: enough,
    plan: chosen.plan,
    workDoneAt: chosen.finish,
    fewerWorkDoneAt: late === 0 ? null : ran(late).finish,
    searchedUpTo: most,
  };
}

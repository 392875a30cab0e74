/**
 * Pools and schedules onto plain callers, before the engine runs: the engine sees callers with one
 * token each and at most one interval (`startSeconds`, `stopSeconds`), never a pool or a schedule.
 */
import { TollgateError } from '../core/errors.js';
import { type Pool, poolProblems, poolSize, shareOf } from './pool.js';
import type { CallerSpec, Scenario } from './scenario.js';
import { type ScheduledRun, scheduledRuns, scheduleProblems } from './schedule.js';

/** Where an expanded caller came from. */
export interface CallerOrigin {
  /** The scenario caller's name. */
  readonly origin: string;
  /** Its pool member (1-based) and token of that member (1-based), or null outside a pool. */
  readonly member: number | null;
  readonly token: number | null;
  /** Its scheduled run (1-based) when the caller repeats, else null. */
  readonly run: number | null;
}

/** A pool as expanded: its callers by name, for a summary per pool. */
export interface ExpandedPool {
  readonly name: string;
  readonly unit: 'users' | 'installations';
  readonly size: number;
  readonly tokensPerMember: number;
  readonly callers: readonly string[];
}

/** A scenario with pools and schedules expanded, and what each caller came from. */
export interface ExpandedScenario {
  readonly scenario: Scenario;
  /** Parallel to `scenario.callers`. */
  readonly origins: readonly CallerOrigin[];
  readonly pools: readonly ExpandedPool[];
}

function fail(caller: string, field: string, problems: readonly string[]): never {
  const lines = problems.map((p) => `scenario: caller \`${caller}\`: \`${field}\`: ${p}`);
  throw new TollgateError(
    'TOLLGATE_INVALID_INPUT',
    lines.length === 1 ? lines[0]! : `${lines.length} problems in caller \`${caller}\``,
    lines.length === 1 ? {} : { details: lines },
  );
}

/** One token of a pool: the member's identity fact renamed `<fact>-<member>`. */
function poolMembers(spec: CallerSpec, pool: Pool): { spec: CallerSpec; member: number; token: number }[] {
  const { unit, size, tokensPerMember } = poolSize(pool);
  const count = size * tokensPerMember;
  if (spec.work !== undefined && spec.work < count)
    fail(spec.name, 'pool', [
      `${count} tokens share a \`work\` of ${spec.work}: some would have nothing to do`,
    ]);
  const fact = unit === 'users' ? 'user' : 'installation';
  const base = spec.token[fact] ?? spec.name;
  const out: { spec: CallerSpec; member: number; token: number }[] = [];
  for (let m = 0; m < size; m++)
    for (let t = 0; t < tokensPerMember; t++) {
      const index = m * tokensPerMember + t;
      const { pool: _pool, ...rest } = spec;
      out.push({
        member: m + 1,
        token: t + 1,
        spec: {
          ...rest,
          name: `${spec.name}[${m + 1}${tokensPerMember > 1 ? `.${t + 1}` : ''}]`,
          token: { ...spec.token, [fact]: `${base}-${m + 1}` },
          ...(spec.work === undefined ? {} : { work: shareOf(spec.work, count, index) }),
          ...(spec.rate === undefined ? {} : { rate: spec.rate / count }),
        },
      });
    }
  return out;
}

function onRun(spec: CallerSpec, run: ScheduledRun, index: number, runs: number): CallerSpec {
  const { schedule, ...rest } = spec;
  const burst = schedule?.burst;
  const { rate: _rate, ...unpaced } = rest;
  return {
    ...(burst === undefined ? rest : { ...unpaced, work: burst, workers: burst }),
    name: runs > 1 ? `${spec.name}#${index + 1}` : spec.name,
    ...(run.start > 0 ? { startSeconds: run.start } : {}),
    ...(run.stop === null ? {} : { stopSeconds: run.stop }),
  };
}

/**
 * Expands every pool (one caller per token, identities `<user>-1`, `<user>-2`, ... or
 * `<installation>-1`, ...; `work` and `rate` shared evenly) and every schedule (one caller per
 * run, `work` per run). A scenario without either comes back as it is. Throws
 * TOLLGATE_INVALID_INPUT naming the caller and field of an unsound pool or schedule.
 * @example
 * import { expandScenario } from './expand-scenario.js';
 * const { scenario } = expandScenario({ seed: 1, callers: [{ name: 'sync', token: { kind: 'app-installation', installation: '42' }, work: 9000, pool: { installations: 3 }, behaviour: 'polite', mix: [{ endpoint: 'GET /rate_limit', weight: 1 }] }] });
 * scenario.callers.map((c) => [c.name, c.token.installation, c.work]);
 * // [['sync[1]', '42-1', 3000], ['sync[2]', '42-2', 3000], ['sync[3]', '42-3', 3000]]
 */
export function expandScenario(scenario: Scenario): ExpandedScenario {
  if (!scenario.callers.some((c) => c.pool !== undefined || c.schedule !== undefined))
    return { scenario, origins: scenario.callers.map(plainOrigin), pools: [] };
  const callers: CallerSpec[] = [];
  const origins: CallerOrigin[] = [];
  const pools: ExpandedPool[] = [];
  for (const spec of scenario.callers) {
    if (spec.pool !== undefined) {
      const problems = poolProblems(spec.pool, spec.token.kind);
      if (problems.length > 0) fail(spec.name, 'pool', problems);
    }
    if (spec.schedule !== undefined) {
      const problems = scheduleProblems(spec.schedule, scenario.durationSeconds);
      if ((spec.startSeconds ?? spec.stopSeconds) !== undefined)
        problems.push('it sets when the caller runs: give it or `startSeconds`/`stopSeconds`, not both');
      if (spec.schedule.burst !== undefined && spec.work !== undefined)
        problems.push("`burst` is the work of each run: give `burst` or the caller's `work`, not both");
      if (problems.length > 0) fail(spec.name, 'schedule', problems);
    }
    const members =
      spec.pool === undefined ? [{ spec, member: null, token: null }] : poolMembers(spec, spec.pool);
    const runs = spec.schedule === undefined ? [] : scheduledRuns(spec.schedule, scenario.durationSeconds);
    const start = callers.length;
    for (const { spec: one, member, token } of members) {
      if (runs.length === 0) {
        callers.push(one);
        origins.push({ origin: spec.name, member, token, run: null });
        continue;
      }
      runs.forEach((run, k) => {
        callers.push(onRun(one, run, k, runs.length));
        origins.push({ origin: spec.name, member, token, run: runs.length > 1 ? k + 1 : null });
      });
    }
    if (spec.pool !== undefined) {
      const { unit, size, tokensPerMember } = poolSize(spec.pool);
      pools.push({
        name: spec.name,
        unit,
        size,
        tokensPerMember,
        callers: callers.slice(start).map((c) => c.name),
      });
    }
  }
  return { scenario: { ...scenario, callers }, origins, pools };
}

function plainOrigin(spec: CallerSpec): CallerOrigin {
  return { origin: spec.name, member: null, token: null, run: null };
}

/**
 * A refusal-free plan that beats every steady pace when a long window binds (the primary hour,
 * content per hour): spend one window's budget at the pace the other ceilings allow, wait until
 * the window has passed (`x-ratelimit-reset`), and again. A polite client at full speed does the
 * same, but learns each reset from a refusal; this plan meets none.
 */
import type { LimitsConfig } from '../limits/limits-config.js';
import { type GroupPlan, type MemberPlan, type PlanMember, planGroup } from './plan-identity.js';
import { type PlannedIdentity, planned, type RunScenario, type ScenarioPlan } from './plan-scenario.js';
import type { Ceiling } from './plan-units.js';
import type { WindowedAdvice } from './planner-types.js';
import type { CallerSpec } from './scenario.js';

/** Windows shorter than this gain too little over a steady pace to be worth a plan of their own. */
const LONG_WINDOW_SECONDS = 600;
/** A second past the window's end: the reset is stated in whole seconds. */
const PAST_RESET_SECONDS = 1;
const SLIDING_SLACK_SECONDS = 60;

/** What the windowed arithmetic reads of an identity: its ceilings, members and steady plan. */
type WindowedGroup = Pick<PlannedIdentity, 'ceilings' | 'members' | 'plan'>;

/** One identity's windowed plan, by the arithmetic. */
interface GroupWindows<G extends WindowedGroup = PlannedIdentity> {
  readonly identity: G;
  readonly ceiling: Ceiling;
  readonly windows: number;
  /** Per member: requests per window (the last window takes what is left). */
  readonly perWindow: readonly number[];
  readonly inner: GroupPlan;
  readonly gap: number;
}

function windowsFor<G extends WindowedGroup>(
  identity: G,
  concurrency: number,
  scale: number,
): GroupWindows<G> | null {
  const binding = identity.plan.binding;
  if (binding?.kind !== 'ceiling' || binding.ceiling.windowSeconds < LONG_WINDOW_SECONDS) return null;
  const members = identity.members;
  // Only members with work that run from the start together: their windows open together.
  if (members.some((m) => m.work === null || m.from !== 0 || m.to !== Number.POSITIVE_INFINITY)) return null;
  const ceiling = binding.ceiling;
  const k = identity.ceilings.indexOf(ceiling);
  // A whole window's budget: run k + 1 starts after run k's window has passed, so no window holds
  // more than one run (checked by the run; `scale` below 1 after a refusal).
  const budget = ceiling.limit * scale;
  let windows = Math.ceil(members.reduce((sum, m) => sum + m.work! * m.use.mean[k]!, 0) / budget);
  // Each window's share must fit the ceiling whole, even if every request costs the most.
  const share = (m: PlanMember, n: number) => Math.ceil(m.work! / n);
  while (
    windows < 1000 &&
    members.reduce((sum, m) => sum + share(m, windows) * m.use.most[k]!, 0) > ceiling.limit
  )
    windows++;
  if (windows <= 1) return null;
  const perWindow = members.map((m) => share(m, windows));
  const inner = planGroup(
    members.map((m, i) => ({ ...m, work: perWindow[i]! })),
    identity.ceilings,
    concurrency,
    scale,
  );
  // A fixed window (primary) resets a window after its first request; a sliding one frees each
  // request a window after it was sent, so the next run starts late enough that answers slower
  // than the last run's (up to a minute in all) cannot bring two requests within one window.
  const gap =
    ceiling.windowSeconds + (ceiling.rule === 'primary' ? PAST_RESET_SECONDS : SLIDING_SLACK_SECONDS);
  if (inner.finish === null || inner.finish >= gap) return null;
  return { identity, ceiling, windows, perWindow, inner, gap };
}

/**
 * When the windowed plan of an identity would finish, by the arithmetic alone (no run): the last
 * window opens `windows − 1` gaps after the first and takes as long as one window's share. Null
 * when no long window binds or the plan would not beat the steady one.
 * @example
 * // 1,000 issue creations, content per hour (500) binding: 2 windows, the second 3,660 s after
 * // the first, each 500 at 80 a minute (about 375 s):
 * // windowedFinish({ ceilings, members, plan }, 100) -> 4035
 */
export function windowedFinish(identity: WindowedGroup, concurrency: number): number | null {
  const group = windowsFor(identity, concurrency, 1);
  return group === null ? null : (group.windows - 1) * group.gap + group.inner.finish!;
}

/** The runs of member `m` under a windowed plan: one caller per window, `name~1`, `name~2`, ... */
function windowRuns(
  spec: CallerSpec,
  work: number,
  perWindow: number,
  plan: MemberPlan,
  windows: number,
  gap: number,
): CallerSpec[] {
  const runs: CallerSpec[] = [];
  for (let w = 0; w < windows; w++) {
    const left = Math.min(perWindow, work - w * perWindow);
    if (left <= 0) break;
    runs.push({
      ...planned(spec, plan.rate, plan.workers, plan.unpaced),
      name: `${spec.name}~${w + 1}`,
      work: left,
      ...(w === 0 ? {} : { startSeconds: w * gap }),
    });
  }
  return runs;
}

/**
 * For each identity of `plan` bound by a long window: the windowed plan, checked by a run (slowed
 * as the steady plan is, at most 3 tries), keyed by identity; only those that finish sooner than
 * the steady plan and meet no refusal.
 * @example
 * // windowedPlans(expanded, plan, limits, run).get('installation:42')
 * // -> { rate: 14.85, workers: 6, perWindow: 6667, windows: 3, waitSeconds: 3601, workDoneAt: 7651, refused: 0 }
 */
export function windowedPlans(
  scenario: { readonly callers: readonly CallerSpec[]; readonly seed: number },
  plan: ScenarioPlan,
  config: LimitsConfig,
  run: RunScenario,
): Map<string, Map<number, WindowedAdvice>> {
  const found = new Map<string, Map<number, WindowedAdvice>>();
  let scale = 1;
  for (let attempt = 0; attempt < 3; attempt++) {
    const groups = plan.identities
      .filter((identity) => !found.has(identity.identity))
      .map((identity) => windowsFor(identity, config.secondary.concurrency.limit, scale))
      .filter((g): g is GroupWindows => g !== null);
    if (groups.length === 0) break;
    const callers: CallerSpec[] = [];
    const owners: { group: GroupWindows; index: number; first: number; count: number }[] = [];
    for (const group of groups)
      group.identity.callers.forEach((index, m) => {
        const spec = scenario.callers[index]!;
        const runs = windowRuns(
          spec,
          spec.work!,
          group.perWindow[m]!,
          group.inner.members[m]!,
          group.windows,
          group.gap,
        );
        owners.push({ group, index, first: callers.length, count: runs.length });
        callers.push(...runs);
      });
    const { durationSeconds: _duration, ...rest } = plan.planned;
    const report = run({ ...rest, callers }, () => {});
    const refusedBy = new Map<GroupWindows, number>();
    for (const owner of owners)
      for (const caller of report.callers.slice(owner.first, owner.first + owner.count))
        refusedBy.set(
          owner.group,
          (refusedBy.get(owner.group) ?? 0) + Object.values(caller.denied).reduce((a, b) => a + (b ?? 0), 0),
        );
    for (const owner of owners) {
      const { group } = owner;
      if ((refusedBy.get(group) ?? 0) > 0) continue;
      const done = report.callers.slice(owner.first, owner.first + owner.count).map((c) => c.workDoneAt);
      if (done.some((d) => d === null)) continue;
      const member = group.inner.members[group.identity.callers.indexOf(owner.index)]!;
      const advice = found.get(group.identity.identity) ?? new Map<number, WindowedAdvice>();
      advice.set(owner.index, {
        rate: member.rate,
        workers: member.workers,
        unpaced: member.unpaced,
        perWindow: group.perWindow[group.identity.callers.indexOf(owner.index)]!,
        windows: owner.count,
        waitSeconds: group.gap,
        workDoneAt: Math.max(...(done as number[])),
        refused: 0,
      });
      found.set(group.identity.identity, advice);
    }
    scale *= 0.97;
  }
  return found;
}

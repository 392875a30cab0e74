/** One caller's advice, from its identity's plan, the run that checked it, and the polite run. */
import type { Binding } from './plan-identity.js';
import { roundDown, type ScenarioPlan } from './plan-scenario.js';
import type { BindingRule, HowMany, PlannerAdvice, WindowedAdvice } from './planner-types.js';
import type { SimulationReport } from './simulate.js';

const WINDOW_WORDS: Readonly<Record<number, string>> = { 60: 'a minute', 3600: 'an hour' };

/**
 * The binding of a plan as the advice states it.
 * @example
 * // bindingRule({ kind: 'ceiling', ceiling: { rule: 'primary', resource: 'core', limit: 7000, windowSeconds: 3600, unit: 'requests' } })
 * // -> { rule: 'primary', resource: 'core', limit: 7000, windowSeconds: 3600, text: 'primary (core): 7,000 requests an hour' }
 */
export function bindingRule(binding: Binding | null): BindingRule | null {
  if (binding === null) return null;
  if (binding.kind === 'concurrency')
    return {
      rule: 'concurrency',
      limit: binding.limit,
      windowSeconds: 0,
      text: `concurrency: ${binding.limit} requests in flight`,
    };
  if (binding.kind === 'poll')
    return {
      rule: 'poll_interval',
      limit: 1,
      windowSeconds: binding.seconds,
      text: `X-Poll-Interval: one poll per ${binding.seconds} s`,
    };
  const c = binding.ceiling;
  const per = WINDOW_WORDS[c.windowSeconds] ?? `per ${c.windowSeconds.toLocaleString('en-US')} s`;
  return {
    rule: c.rule,
    ...(c.resource === undefined ? {} : { resource: c.resource }),
    limit: c.limit,
    windowSeconds: c.windowSeconds,
    text: `${c.rule}${c.resource === undefined ? '' : ` (${c.resource})`}: ${c.limit.toLocaleString('en-US')} ${c.unit} ${per}`,
  };
}

/**
 * The advice for caller `index` of the expanded scenario.
 * @example
 * // adviceFor(0, plan, politeReport, null) -> { caller: 'importer', rate: 1.32, workers: 1, binding: {...}, ... }
 */
export function adviceFor(
  index: number,
  plan: ScenarioPlan,
  polite: SimulationReport,
  howMany: HowMany | null,
  windowed?: WindowedAdvice,
): PlannerAdvice {
  const identity = plan.identities.find((p) => p.callers.includes(index))!;
  const member = identity.plan.members[identity.callers.indexOf(index)]!;
  const checked = plan.check.callers[index]!;
  const fair = polite.callers[index]!;
  const work = plan.planned.callers[index]!.work ?? null;
  const workDoneAt = work === null ? null : checked.workDoneAt;
  const politeDone = fair.workDoneAt;
  // The windowed plan counts only when it is sooner than the steady one.
  const sooner =
    windowed !== undefined && (workDoneAt === null || windowed.workDoneAt < workDoneAt)
      ? windowed
      : undefined;
  const best = sooner?.workDoneAt ?? workDoneAt;
  return {
    caller: checked.name,
    identity: identity.identity,
    sharedWith: identity.callers.filter((i) => i !== index).map((i) => plan.check.callers[i]!.name),
    work,
    rate: roundDown(member.rate),
    workers: member.workers,
    unpaced: member.unpaced,
    binding: bindingRule(identity.plan.binding),
    workDoneAt,
    // The plan's times run from the caller's own start (a schedule's offset).
    fastestWorkDoneAt:
      work === null || identity.plan.fastest === null
        ? null
        : (plan.planned.callers[index]!.startSeconds ?? 0) + identity.plan.fastest,
    refused: Object.values(checked.denied).reduce((a, b) => a + (b ?? 0), 0),
    polite:
      work === null
        ? null
        : {
            workDoneAt: politeDone,
            refusals: Object.values(fair.denied).reduce((a, b) => a + (b ?? 0), 0),
            sooner: politeDone !== null && (best === null || politeDone < best),
          },
    howMany,
    ...(sooner === undefined ? {} : { windowed: { ...sooner, rate: roundDown(sooner.rate) } }),
  };
}

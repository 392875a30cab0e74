// What the recommend tests share: the mixes, and the rerun of an advice as the planner says to run
// it (refused nothing, work done within 5% of its promise).
import { expect } from 'vitest';
import { shippedTables } from '../../src/policy/shipped-tables.js';
import { expandScenario } from '../../src/sim/expand-scenario.js';
import type { PlannerAdvice } from '../../src/sim/planner-types.js';
import type { CallerSpec, Scenario } from '../../src/sim/scenario.js';
import { simulate } from '../../src/sim/simulate.js';

export const tables = shippedTables();
export const EVENTS = [{ endpoint: 'GET /repos/{owner}/{repo}/issues/events', weight: 1 }];
export const ISSUES = [{ endpoint: 'POST /repos/{owner}/{repo}/issues', weight: 1 }];

/** The scenario as the advice says to run it: its rate (unless it sends as fast as answers come), its workers, polite. */
export function rerun(scenario: Scenario, advice: readonly PlannerAdvice[]) {
  const callers = expandScenario(scenario).scenario.callers.map((spec, i): CallerSpec => {
    const a = advice[i]!;
    expect(a.caller).toBe(spec.name);
    const { rate: _stated, ...rest } = spec;
    return { ...rest, behaviour: 'polite', workers: a.workers, ...(a.unpaced ? {} : { rate: a.rate }) };
  });
  const longest = Math.max(0, ...advice.map((a) => a.workDoneAt ?? 0));
  const duration =
    scenario.durationSeconds === undefined
      ? {}
      : { durationSeconds: Math.max(scenario.durationSeconds, longest * 1.1) };
  return simulate({ ...scenario, ...duration, callers }, tables);
}

export const refusals = (denied: Readonly<Record<string, number | undefined>>) =>
  Object.values(denied).reduce<number>((a, b) => a + (b ?? 0), 0);

/** Reruns a caller's windowed advice: its windows as callers of their own, one window apart. */
export function rerunWindows(scenario: Scenario, advice: PlannerAdvice) {
  const spec = scenario.callers.find((c) => c.name === advice.caller)!;
  const w = advice.windowed!;
  const { rate: _stated, ...rest } = spec;
  const callers: CallerSpec[] = [];
  for (let k = 0; k < w.windows; k++)
    callers.push({
      ...rest,
      name: `${spec.name}~${k + 1}`,
      behaviour: 'polite',
      workers: w.workers,
      ...(w.unpaced ? {} : { rate: w.rate }),
      work: Math.min(w.perWindow, spec.work! - k * w.perWindow),
      startSeconds: k * w.waitSeconds,
    });
  const report = simulate({ ...scenario, callers }, tables);
  for (const caller of report.callers) expect(refusals(caller.denied), caller.name).toBe(0);
  const finish = Math.max(...report.callers.map((c) => c.workDoneAt!));
  expect(Math.abs(finish - w.workDoneAt) / w.workDoneAt).toBeLessThanOrEqual(0.05);
  return finish;
}

/** Reruns the advice: nothing refused, each work done within 5% of its promise. */
export function expectKept(scenario: Scenario, advice: readonly PlannerAdvice[]) {
  const report = rerun(scenario, advice);
  report.callers.forEach((caller, i) => {
    expect(refusals(caller.denied), caller.name).toBe(0);
    expect(caller.policyDenied ?? 0, `${caller.name} refused by the policy`).toBe(0);
    const promised = advice[i]!.workDoneAt;
    if (advice[i]!.work === null) return;
    expect(promised).not.toBeNull();
    expect(caller.workDoneAt).not.toBeNull();
    expect(Math.abs(caller.workDoneAt! - promised!) / promised!).toBeLessThanOrEqual(0.05);
  });
  return report;
}

// `recommend` against hand calculations from seed 000 ("Primary rate limits", "Secondary rate
// limits"), and its advice rerun: refused nothing, work done within 5% of what it promised.
import { describe, expect, it } from 'vitest';
import { shippedTables } from '../../src/policy/shipped-tables.js';
import { expandScenario } from '../../src/sim/expand-scenario.js';
import type { PlannerAdvice } from '../../src/sim/planner-types.js';
import { recommend } from '../../src/sim/recommend.js';
import type { CallerSpec, Scenario } from '../../src/sim/scenario.js';
import { simulate } from '../../src/sim/simulate.js';

const tables = shippedTables();
const EVENTS = [{ endpoint: 'GET /repos/{owner}/{repo}/issues/events', weight: 1 }];
const ISSUES = [{ endpoint: 'POST /repos/{owner}/{repo}/issues', weight: 1 }];

/** The scenario as the advice says to run it: its rate (unless it sends as fast as answers come), its workers, polite. */
function rerun(scenario: Scenario, advice: readonly PlannerAdvice[]) {
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

const refusals = (denied: Readonly<Record<string, number | undefined>>) =>
  Object.values(denied).reduce<number>((a, b) => a + (b ?? 0), 0);

/** Reruns a caller's windowed advice: its windows as callers of their own, one window apart. */
function rerunWindows(scenario: Scenario, advice: PlannerAdvice) {
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
function expectKept(scenario: Scenario, advice: readonly PlannerAdvice[]) {
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

describe('recommend', () => {
  it('plans 200 issue creations under content_per_minute: 80 a minute, so the work takes at least 150 s; within 5% of it, refused nothing', () => {
    const scenario: Scenario = {
      seed: 3,
      callers: [
        {
          name: 'importer',
          token: { kind: 'fine-grained', user: 'importer' },
          workers: 4,
          work: 200,
          behaviour: 'polite',
          mix: ISSUES,
          latencyMs: 200,
        },
      ],
    };
    const [advice] = recommend(scenario, tables);
    // seed 000: "Content-generating requests: at most 80 per minute and 500 per hour". 200 fit
    // under 500 (the hour cannot refuse them); 80 a minute is 4/3 a second: 200 / (4/3) = 150 s.
    // Points: 5 a write, 900 a minute = 3 writes a second, looser.
    expect(advice!.binding).toMatchObject({ rule: 'content_per_minute', limit: 80, windowSeconds: 60 });
    expect(advice!.rate).toBeLessThanOrEqual(80 / 60);
    expect(advice!.fastestWorkDoneAt).toBeCloseTo(150, 6);
    expect(advice!.workDoneAt!).toBeLessThanOrEqual(150 * 1.05);
    expect(advice!.refused).toBe(0);
    expectKept(scenario, [advice!]);
  });

  it('plans the nightly sync under the installation formula (7,000 an hour), and says polite at full speed is sooner', () => {
    const scenario: Scenario = {
      seed: 20261123,
      callers: [
        {
          name: 'nightly-sync',
          token: { kind: 'app-installation', installation: '42', repositoriesCount: 50, usersCount: 30 },
          workers: 8,
          work: 20_000,
          behaviour: 'polite',
          mix: [
            { endpoint: 'GET /repos/{owner}/{repo}/issues/events', weight: 8 },
            { endpoint: 'GET /repos/{owner}/{repo}/issues/events/{event_id}', weight: 2 },
          ],
          latencyMs: { exponential: 120 },
          cpuMs: { uniform: [2, 20] },
        },
      ],
    };
    const [advice] = recommend(scenario, tables);
    // 5,000 + 50 × (50 − 20) repositories + 50 × (30 − 20) users = 7,000 an hour; 20,000 at
    // 7,000 / 3,600 a second take 10,285.7 s.
    expect(advice!.binding).toMatchObject({
      rule: 'primary',
      resource: 'core',
      limit: 7_000,
      windowSeconds: 3_600,
    });
    expect(advice!.fastestWorkDoneAt).toBeCloseTo((20_000 * 3_600) / 7_000, 3);
    expect(advice!.workDoneAt!).toBeLessThanOrEqual(((20_000 * 3_600) / 7_000) * 1.05);
    // Polite at full speed spends each hour's 7,000 at once and waits for the reset: two resets, then 6,000 more.
    expect(advice!.polite!.sooner).toBe(true);
    expect(advice!.polite!.workDoneAt!).toBeGreaterThan(7_200);
    expect(advice!.polite!.workDoneAt!).toBeLessThan(advice!.workDoneAt!);
    expectKept(scenario, [advice!]);
    // Sooner and refusal-free: 6,667 per hour's window at the 900 points a minute (15 a second),
    // three windows 3,601 s apart: 2 × 3,601 + 6,667 / 15 = 7,646 s at best.
    expect(advice!.windowed).toMatchObject({ windows: 3, perWindow: 6_667, waitSeconds: 3_601, refused: 0 });
    expect(advice!.windowed!.rate).toBeLessThanOrEqual(15);
    expect(advice!.windowed!.workDoneAt).toBeLessThanOrEqual((2 * 3_601 + 6_667 / 15) * 1.05);
    expect(rerunWindows(scenario, advice!)).toBeGreaterThanOrEqual(2 * 3_601 + 6_667 / 15);
  });

  it('plans 4,000 reads under rest_points: 900 points a minute, 15 GETs a second', () => {
    const scenario: Scenario = {
      seed: 11,
      callers: [
        {
          name: 'reader',
          token: { kind: 'fine-grained', user: 'reader' },
          work: 4_000,
          behaviour: 'greedy',
          mix: EVENTS,
          latencyMs: 50,
        },
      ],
    };
    const [advice] = recommend(scenario, tables);
    // 4,000 fit under the 5,000 an hour; a GET costs 1 point: 4,000 / 15 = 266.7 s.
    expect(advice!.binding?.rule).toBe('rest_points');
    expect(advice!.fastestWorkDoneAt).toBeCloseTo(4_000 / 15, 6);
    expect(advice!.workDoneAt!).toBeLessThanOrEqual((4_000 / 15) * 1.05);
    // Polite at full speed (20 a second: one worker, 50 ms answers) spends the first minute's 900
    // points in 45 s, then rides the ceiling, refused now and then: a little sooner, and it says so.
    expect(advice!.polite!.refusals).toBeGreaterThan(0);
    expect(advice!.polite!.sooner).toBe(advice!.polite!.workDoneAt! < advice!.workDoneAt!);
    expectKept(scenario, [advice!]);
  });

  it('plans callers on one user together: their rates fit one budget, and a caller without work gets a sustainable rate', () => {
    const scenario: Scenario = {
      seed: 9,
      durationSeconds: 7_200,
      callers: [
        {
          name: 'sync',
          token: { kind: 'fine-grained', user: 'octocat' },
          work: 3_000,
          workers: 4,
          behaviour: 'polite',
          mix: EVENTS,
        },
        {
          name: 'bot',
          token: { kind: 'app-user', user: 'Octocat' },
          work: 300,
          workers: 2,
          behaviour: 'polite',
          mix: ISSUES,
        },
        {
          name: 'watcher',
          token: { kind: 'classic', user: 'octocat' },
          behaviour: 'polite',
          mix: [{ endpoint: 'GET /notifications', weight: 1 }],
        },
      ],
    };
    const advice = recommend(scenario, tables);
    expect(advice.map((a) => a.identity)).toEqual(['user:octocat', 'user:octocat', 'user:octocat']);
    expect(advice[0]!.sharedWith).toEqual(['bot', 'watcher']);
    // The watcher (no work) gets a third of the 5,000 an hour: 5,000 / 3 / 3,600 = 0.463 a second.
    expect(advice[2]!.work).toBeNull();
    expect(advice[2]!.rate).toBeLessThanOrEqual(5_000 / 3 / 3_600);
    expect(advice[2]!.rate).toBeGreaterThan((5_000 / 3 / 3_600) * 0.95);
    // sync and bot share what the watcher leaves, in proportion to their work, and finish
    // together: 3,300 requests at 5,000 / 3,600 − the watcher's rate a second (about 3,550 s,
    // 3,564 s at exactly two thirds). Neither gets a nonsense rate.
    const together = 3_300 / (5_000 / 3_600 - advice[2]!.rate);
    expect(together).toBeGreaterThan(3_500);
    expect(together).toBeLessThan(3_564);
    for (const a of advice.slice(0, 2)) {
      expect(a.binding?.rule).toBe('primary');
      expect(a.fastestWorkDoneAt! / together).toBeCloseTo(1, 2);
      expect(a.workDoneAt!).toBeLessThanOrEqual(together * 1.05);
      expect(a.rate).toBeGreaterThanOrEqual((a.work! / together) * 0.95);
    }
    expect(advice[0]!.rate / advice[1]!.rate).toBeCloseTo(10, 1);
    const report = expectKept(scenario, advice);
    expect(report.callers[2]!.admitted).toBeGreaterThan(0.95 * advice[2]!.rate * 7_200);
  });

  it('plans two callers on one installation together, each refused nothing when rerun', () => {
    const token = { kind: 'app-installation' as const, installation: '7' };
    const scenario: Scenario = {
      seed: 5,
      callers: [
        {
          name: 'a',
          token,
          work: 4_000,
          workers: 8,
          behaviour: 'greedy',
          mix: EVENTS,
          latencyMs: { exponential: 80 },
        },
        {
          name: 'b',
          token,
          work: 2_000,
          workers: 8,
          behaviour: 'octokit',
          mix: EVENTS,
          latencyMs: { uniform: [20, 60] },
        },
      ],
    };
    const advice = recommend(scenario, tables);
    // 6,000 together: over 5,000 an hour, so both pace at 5,000 an hour together: 4,320 s.
    expect(advice[0]!.fastestWorkDoneAt).toBeCloseTo((6_000 * 3_600) / 5_000, 3);
    expect(advice[0]!.rate / advice[1]!.rate).toBeCloseTo(2, 1);
    expectKept(scenario, advice);
  });
});

describe('recommend: a long window binding', () => {
  it('offers 1,000 issue creations as 500 a window (content_per_hour), refusal-free, sooner than 7,200 s steady', () => {
    const scenario: Scenario = {
      seed: 40,
      callers: [
        {
          name: 'bot',
          token: { kind: 'fine-grained', user: 'bot' },
          work: 1_000,
          workers: 2,
          behaviour: 'polite',
          mix: ISSUES,
          latencyMs: 300,
        },
      ],
    };
    const [advice] = recommend(scenario, tables);
    // Steady: 500 an hour binds, 1,000 take 7,200 s. Windowed: 500 at 80 a minute (375 s), wait
    // until an hour and a minute after the first, 500 more: 3,660 + 375 = 4,035 s at best.
    expect(advice!.binding).toMatchObject({ rule: 'content_per_hour', limit: 500 });
    expect(advice!.fastestWorkDoneAt).toBeCloseTo(7_200, 6);
    expect(advice!.windowed).toMatchObject({ windows: 2, perWindow: 500, waitSeconds: 3_660 });
    expect(advice!.windowed!.workDoneAt).toBeLessThanOrEqual(4_035 * 1.05);
    expect(rerunWindows(scenario, advice!)).toBeGreaterThanOrEqual(4_035);
    expectKept(scenario, [advice!]);
  });
});

describe('recommend: callers without work, pollers, small work', () => {
  it('gives every caller a sustainable rate: an anonymous client 60 an hour, a poller one poll per X-Poll-Interval', () => {
    const scenario: Scenario = {
      seed: 13,
      durationSeconds: 7_200,
      callers: [
        { name: 'anon', token: { kind: 'anonymous', ip: '198.51.100.4' }, behaviour: 'greedy', mix: EVENTS },
        {
          name: 'poller',
          token: { kind: 'classic', user: 'p' },
          behaviour: 'polite',
          poll: { unchanged: 0.9 },
          mix: [{ endpoint: 'GET /notifications', weight: 1 }],
        },
      ],
    };
    const [anon, poller] = recommend(scenario, tables);
    // seed 000: 60 an hour per address, 1/60 a second; the plan stays 1% under it.
    expect(anon).toMatchObject({
      work: null,
      workDoneAt: null,
      polite: null,
      binding: { rule: 'primary', limit: 60 },
    });
    expect(anon!.rate).toBeLessThanOrEqual(60 / 3_600);
    expect(anon!.rate).toBeGreaterThan((60 / 3_600) * 0.95);
    // The poller waits X-Poll-Interval (60 s while the service is not loaded) whatever its budget allows.
    expect(poller!.binding).toMatchObject({ rule: 'poll_interval', windowSeconds: 60 });
    expect(poller!.rate).toBeCloseTo(1 / 60, 3);
    const report = expectKept(scenario, [anon!, poller!]);
    expect(report.callers[0]!.admitted).toBeGreaterThanOrEqual(118);
  });

  it('sends a small work as fast as answers come when no rate binds, at most one worker per request', () => {
    const scenario: Scenario = {
      seed: 14,
      callers: [
        {
          name: 'tiny',
          token: { kind: 'fine-grained', user: 't' },
          work: 60,
          behaviour: 'greedy',
          mix: EVENTS,
          latencyMs: 50,
        },
      ],
    };
    const [advice] = recommend(scenario, tables);
    // 60 requests: under every ceiling whole (60 points of 900, 60 of 5,000), so only the 100 in flight bind.
    expect(advice).toMatchObject({
      unpaced: true,
      workers: 60,
      binding: { rule: 'concurrency', limit: 100 },
    });
    expect(advice!.workDoneAt!).toBeLessThanOrEqual(0.05 * 1.05 + 0.001);
    expectKept(scenario, [advice!]);
  });
});

describe('recommend: how many installations or users', () => {
  const sync: CallerSpec = {
    name: 'sync',
    token: { kind: 'app-installation', installation: '42', repositoriesCount: 50, usersCount: 30 },
    workers: 8,
    work: 20_000,
    behaviour: 'polite',
    mix: EVENTS,
    latencyMs: { exponential: 120 },
  };

  it('answers 3 installations for 20,000 requests within an hour: 3 finish when run, 2 do not', () => {
    const scenario: Scenario = { seed: 21, callers: [sync] };
    const [advice] = recommend(scenario, tables, { withinSeconds: 3_600 });
    // By hand: 2 installations take 10,000 each, over their 7,000 an hour: 10,000 × 3,600 / 7,000
    // = 5,143 s. 3 take 6,667 each, under 7,000: only the 900 points a minute bind, 445 s.
    expect(advice!.howMany).toMatchObject({
      unit: 'installations',
      work: 20_000,
      withinSeconds: 3_600,
      count: 3,
    });
    expect(advice!.howMany!.workDoneAt!).toBeLessThanOrEqual(3_600);
    expect(advice!.howMany!.fewerWorkDoneAt!).toBeGreaterThan(3_600);
    // Run both pools as their own advice says.
    for (const [size, inTime] of [
      [3, true],
      [2, false],
    ] as const) {
      const pooled: Scenario = { seed: 21, callers: [{ ...sync, pool: { installations: size } }] };
      const plan = recommend(pooled, tables);
      expect(plan.map((a) => a.identity)).toEqual(
        Array.from({ length: size }, (_, i) => `installation:42-${i + 1}`),
      );
      const report = expectKept(pooled, plan);
      const finish = Math.max(...report.callers.map((c) => c.workDoneAt!));
      expect(finish <= 3_600).toBe(inTime);
    }
  });

  it('answers in users for a user token, each user with its tokens sharing one budget', () => {
    const scenario: Scenario = {
      seed: 4,
      callers: [
        {
          name: 'bots',
          token: { kind: 'fine-grained', user: 'bot' },
          work: 1_200,
          workers: 2,
          behaviour: 'polite',
          mix: ISSUES,
          latencyMs: 100,
          pool: { users: 1, tokensPerUser: 2 },
        },
      ],
    };
    const [first] = recommend(scenario, tables, { withinSeconds: 3_600 });
    // 1,200 issue creations in an hour: each user may create 500 an hour (seed 000, content), so
    // 2 users (600 each, over 500: 500 an hour, 4,320 s) are too few, 3 (400 each: 80 a minute,
    // 300 s) suffice. The 2 tokens of a user share its budget.
    expect(first!.howMany).toMatchObject({ unit: 'users', count: 3 });
    expect(first!.howMany!.fewerWorkDoneAt!).toBeGreaterThan(3_600);
    expect(first!.sharedWith).toEqual(['bots[1.2]']);
  });
});

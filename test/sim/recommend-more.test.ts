// `recommend` where a long window binds, for callers without work or with little, and how many
// installations or users a work needs; each advice rerun as the planner says (recommend-rerun.ts).
import { describe, expect, it } from 'vitest';
import { recommend } from '../../src/sim/recommend.js';
import type { CallerSpec, Scenario } from '../../src/sim/scenario.js';
import { EVENTS, expectKept, ISSUES, rerunWindows, tables } from './recommend-rerun.js';

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

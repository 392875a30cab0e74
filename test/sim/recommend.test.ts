// `recommend` against hand calculations from seed 000 ("Primary rate limits", "Secondary rate
// limits"), and its advice rerun: refused nothing, work done within 5% of what it promised. The
// long windows, callers without work and how many installations: recommend-more.test.ts.
import { describe, expect, it } from 'vitest';
import { recommend } from '../../src/sim/recommend.js';
import type { Scenario } from '../../src/sim/scenario.js';
import { EVENTS, expectKept, ISSUES, rerunWindows, tables } from './recommend-rerun.js';

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

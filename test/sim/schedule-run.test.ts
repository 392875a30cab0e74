// Schedules and pools run by the engine: nothing sent outside a run, a burst meets the 100 in
// flight, a user's tokens share one budget (seed 000, "Primary rate limits" and "Secondary rate limits").
import { describe, expect, it } from 'vitest';
import { shippedTables } from '../../src/policy/shipped-tables.js';
import { expandScenario } from '../../src/sim/expand-scenario.js';
import { poolSummaries } from '../../src/sim/pool-summary.js';
import type { Scenario } from '../../src/sim/scenario.js';
import { simulate } from '../../src/sim/simulate.js';

const tables = shippedTables();
const EVENTS = [{ endpoint: 'GET /repos/{owner}/{repo}/issues/events', weight: 1 }];

describe('schedules in a run', () => {
  it('sends only within each run of a repeated caller: 10 to 15 minutes into each hour', () => {
    const report = simulate(
      {
        seed: 2,
        durationSeconds: 7_200,
        callers: [
          {
            name: 'cron',
            token: { kind: 'fine-grained', user: 'cron' },
            rate: 1,
            behaviour: 'polite',
            mix: EVENTS,
            schedule: { start: 600, every: 3_600, for: 300 },
          },
        ],
      },
      tables,
    );
    expect(report.callers.map((c) => c.name)).toEqual(['cron#1', 'cron#2']);
    report.callers.forEach((caller, run) => {
      const { bucketSeconds, admitted } = caller.series;
      expect(bucketSeconds).toBe(60);
      const busy = admitted.flatMap((n, minute) => (n > 0 ? [minute] : []));
      // 1 a second for 300 s: minutes 10 to 14 of its hour, 60 each.
      expect(busy).toEqual([10, 11, 12, 13, 14].map((m) => m + 60 * run));
      expect(caller.admitted).toBe(300);
    });
    // Both runs on one token: one identity.
    expect(report.identities).toEqual([
      expect.objectContaining({ identity: 'user:cron', callers: ['cron#1', 'cron#2'], admitted: 600 }),
    ]);
  });

  it('sends a burst at once: 100 in flight at most, the rest refused by concurrency', () => {
    const report = simulate(
      {
        seed: 3,
        callers: [
          {
            name: 'burst',
            token: { kind: 'fine-grained', user: 'b' },
            behaviour: 'greedy',
            mix: EVENTS,
            latencyMs: 500,
            schedule: { start: 60, burst: 150 },
          },
        ],
      },
      tables,
    );
    const [caller] = report.callers;
    // seed 000: "Concurrent requests: at most 100". 150 sent at 60 s: 100 admitted, 50 refused.
    expect(caller!.rules.concurrency?.firstRefusalAt).toBe(60);
    expect(caller!.series.inFlight[1]).toBe(100);
    expect(caller!.series.admitted[0]).toBe(0);
    expect(caller!.completed).toBe(150);
  });
});

describe('pools in a run', () => {
  it('gives each user 5,000 an hour shared by its tokens, summed per pool', () => {
    const scenario: Scenario = {
      seed: 4,
      durationSeconds: 3_600,
      callers: [
        {
          name: 'fleet',
          token: { kind: 'fine-grained', user: 'bot' },
          workers: 10,
          behaviour: 'polite',
          mix: EVENTS,
          latencyMs: 20,
          pool: { users: 2, tokensPerUser: 2 },
        },
      ],
    };
    const report = simulate(scenario, tables);
    expect(report.identities.map((i) => [i.identity, i.callers, i.admitted])).toEqual([
      ['user:bot-1', ['fleet[1.1]', 'fleet[1.2]'], 5_000],
      ['user:bot-2', ['fleet[2.1]', 'fleet[2.2]'], 5_000],
    ]);
    const [pool] = poolSummaries(expandScenario(scenario).pools, report);
    expect(pool).toMatchObject({
      name: 'fleet',
      unit: 'users',
      size: 2,
      admitted: 10_000,
      work: null,
      workDoneAt: null,
    });
    expect(pool!.denied.primary).toBeGreaterThan(0);
  });
});

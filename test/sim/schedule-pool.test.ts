// Schedules and pools: read from a scenario file, checked, and expanded onto plain callers.
import { describe, expect, it } from 'vitest';
import { shippedTables } from '../../src/policy/shipped-tables.js';
import { expandScenario } from '../../src/sim/expand-scenario.js';
import { readScenario } from '../../src/sim/read-scenario.js';
import type { CallerSpec } from '../../src/sim/scenario.js';
import { scheduledRuns } from '../../src/sim/schedule.js';
import { durationSeconds, formatDuration } from '../../src/sim/schedule-duration.js';
import { thrown } from '../support/thrown.js';

const tables = shippedTables();
const caller = (extra: Partial<CallerSpec>): CallerSpec => ({
  name: 'job',
  token: { kind: 'classic', user: 'octocat' },
  behaviour: 'polite',
  mix: [{ endpoint: 'GET /repos/{owner}/{repo}/issues/events', weight: 1 }],
  ...extra,
});
const yaml = (lines: string) =>
  `seed: 1\nduration_seconds: 86400\ncallers:\n  - name: job\n    behaviour: polite\n    mix: [{ endpoint: "GET /repos/{owner}/{repo}/issues/events" }]\n${lines}`;

describe('durations', () => {
  it('reads seconds as numbers and texts of number-unit parts, and nothing else', () => {
    expect(durationSeconds(45)).toBe(45);
    expect(durationSeconds('90')).toBe(90);
    expect(durationSeconds('10m')).toBe(600);
    expect(durationSeconds('1h30m')).toBe(5_400);
    expect(durationSeconds('2d')).toBe(172_800);
    expect(durationSeconds('10 minutes')).toBeNull();
    expect(durationSeconds('-5m')).toBeNull();
    expect(durationSeconds(-1)).toBeNull();
    expect(formatDuration(3_600)).toBe('1 h');
    expect(formatDuration(7_380)).toBe('2 h 3 min');
  });
});

describe('schedules', () => {
  it('expands a repeated caller onto one caller per run, each with its own interval and the whole work', () => {
    expect(scheduledRuns({ start: 600, every: 3_600, for: 300 }, 7_200)).toEqual([
      { start: 600, stop: 900 },
      { start: 4_200, stop: 4_500 },
    ]);
    const { scenario, origins } = expandScenario({
      seed: 1,
      durationSeconds: 10_800,
      callers: [caller({ work: 50, schedule: { every: 3_600, for: 600 } })],
    });
    const timed = scenario.callers;
    expect(timed.map((c) => [c.name, c.work, c.startSeconds, c.stopSeconds])).toEqual([
      ['job#1', 50, undefined, 600],
      ['job#2', 50, 3_600, 4_200],
      ['job#3', 50, 7_200, 7_800],
    ]);
    expect(scenario.callers.every((c) => c.schedule === undefined)).toBe(true);
    expect(origins.map((o) => o.run)).toEqual([1, 2, 3]);
  });

  it('makes a burst the work of each run, all sent at once, unpaced', () => {
    const { scenario } = expandScenario({
      seed: 1,
      callers: [caller({ rate: 2, schedule: { start: 1_800, burst: 150 } })],
    });
    expect(scenario.callers).toEqual([
      expect.objectContaining({ name: 'job', work: 150, workers: 150, startSeconds: 1_800 }),
    ]);
    expect(scenario.callers[0]!.rate).toBeUndefined();
  });

  it('reads `schedule` from a file with durations, and names the file, line and field of a bad one', () => {
    const good = readScenario(
      yaml('    token: { kind: classic, user: a }\n    schedule: { start: 10m, every: 1h, for: 5m }\n'),
      'ok.yaml',
      tables,
    );
    expect(good.callers[0]!.schedule).toEqual({ start: 600, every: 3_600, for: 300 });
    const overlapping = thrown(() =>
      readScenario(
        yaml('    token: { kind: classic, user: a }\n    schedule: { every: 1h, for: 2h }\n'),
        'o.yaml',
        tables,
      ),
    );
    expect(overlapping.message).toMatch(
      /^o\.yaml:\d+:\d+: caller `job`: `schedule`: `for` \(7200 s\) is longer than `every` \(3600 s\): runs of one caller would overlap/,
    );
    const unreadable = thrown(() =>
      readScenario(
        yaml('    token: { kind: classic, user: a }\n    schedule: { every: hourly }\n'),
        'u.yaml',
        tables,
      ),
    );
    expect(unreadable.message).toMatch(/^u\.yaml:8:\d+: .*schedule\.every/);
    expect(unreadable.message).toContain('`90s`, `10m`, `1h30m`, `2d`');
    const endless = thrown(() =>
      readScenario(
        'seed: 1\ncallers:\n  - name: job\n    behaviour: polite\n    token: { kind: classic, user: a }\n    mix: [{ endpoint: "GET /rate_limit" }]\n    schedule: { every: 1h }\n',
        'e.yaml',
        tables,
      ),
    );
    expect(endless.message).toContain("`every` needs `times` or the scenario's `duration_seconds`");
  });
});

describe('pools', () => {
  it('expands a pool of installations onto distinct identities sharing work and rate, each keeping its workers', () => {
    const { scenario, pools } = expandScenario({
      seed: 1,
      callers: [
        caller({
          name: 'sync',
          token: { kind: 'app-installation', installation: '42', repositoriesCount: 50 },
          work: 10,
          rate: 3,
          workers: 4,
          pool: { installations: 3 },
        }),
      ],
    });
    expect(
      scenario.callers.map((c) => [
        c.name,
        c.token.installation,
        c.token.repositoriesCount,
        c.work,
        c.rate,
        c.workers,
      ]),
    ).toEqual([
      ['sync[1]', '42-1', 50, 4, 1, 4],
      ['sync[2]', '42-2', 50, 3, 1, 4],
      ['sync[3]', '42-3', 50, 3, 1, 4],
    ]);
    expect(pools).toEqual([
      {
        name: 'sync',
        unit: 'installations',
        size: 3,
        tokensPerMember: 1,
        callers: ['sync[1]', 'sync[2]', 'sync[3]'],
      },
    ]);
  });

  it('gives each user of a pool its tokens on one login, so they share its budget', () => {
    const { scenario } = expandScenario({
      seed: 1,
      durationSeconds: 60,
      callers: [caller({ pool: { users: 2, tokensPerUser: 2 }, schedule: { every: 30 } })],
    });
    expect(scenario.callers.map((c) => `${c.name} ${c.token.user}`)).toEqual([
      'job[1.1]#1 octocat-1',
      'job[1.1]#2 octocat-1',
      'job[1.2]#1 octocat-1',
      'job[1.2]#2 octocat-1',
      'job[2.1]#1 octocat-2',
      'job[2.1]#2 octocat-2',
      'job[2.2]#1 octocat-2',
      'job[2.2]#2 octocat-2',
    ]);
  });

  it('refuses a pool that does not fit the token kind, with the kinds that do', () => {
    const problem = thrown(() =>
      readScenario(
        yaml('    token: { kind: classic, user: a }\n    pool: { installations: 3 }\n'),
        'p.yaml',
        tables,
      ),
    );
    expect(problem.message).toMatch(
      /^p\.yaml:\d+:\d+: caller `job`: `pool`: a pool of `installations` needs an `app-installation` token, not `classic`; a `classic` token pools as `users`/,
    );
    expect(() =>
      expandScenario({
        seed: 1,
        callers: [caller({ token: { kind: 'anonymous', ip: '198.51.100.1' }, work: 5, pool: { users: 2 } })],
      }),
    ).toThrow(
      /caller `job`: `pool`: a pool of `users` needs a user token .*, not `anonymous`; an `anonymous` token cannot be pooled/,
    );
  });
});

describe('token facts that do not apply to the kind', () => {
  it('refuses `enterprise_cloud` on a classic, fine-grained or anonymous token, and the installation counts elsewhere', () => {
    for (const token of [
      '{ kind: classic, user: a, enterprise_cloud: true }',
      '{ kind: anonymous, ip: 198.51.100.1, enterprise_cloud: false }',
    ]) {
      const problem = thrown(() => readScenario(yaml(`    token: ${token}\n`), 'f.yaml', tables));
      expect(problem.message).toMatch(
        /^f\.yaml:\d+:\d+: caller `job`: `enterprise_cloud` does not apply to an? `(classic|anonymous)` token/,
      );
      expect(problem.message).toContain(
        'it applies to app-user, oauth-app, app-installation, client-credentials, workflow',
      );
    }
    const counts = thrown(() =>
      readScenario(
        yaml('    token: { kind: fine-grained, user: a, repositories_count: 30 }\n'),
        'c.yaml',
        tables,
      ),
    );
    expect(counts.message).toContain('`repositories_count` does not apply to a `fine-grained` token');
    // Where it applies, it is read.
    const ok = readScenario(
      yaml('    token: { kind: app-user, user: a, enterprise_cloud: true }\n'),
      'ok.yaml',
      tables,
    );
    expect(ok.callers[0]!.token.enterpriseCloud).toBe(true);
  });
});

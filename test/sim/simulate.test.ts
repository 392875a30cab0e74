// The simulator against what the seed's numbers and the limits' stated guarantees say must happen.
import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/sim/scenario.js';
import { simulate } from '../../src/sim/simulate.js';

const EVENTS = [{ endpoint: 'GET /repos/{owner}/{repo}/issues/events', weight: 1 }];
const hour = (callers: Scenario['callers'], extra: Partial<Scenario> = {}): Scenario => ({
  seed: 42,
  durationSeconds: 3600,
  callers,
  ...extra,
});

describe('the simulator', () => {
  it('is deterministic: the same scenario and seed give the same report, byte for byte', () => {
    const scenario = hour([
      {
        name: 'sync',
        token: { kind: 'app-installation', installation: '7', repositoriesCount: 5, usersCount: 3 },
        workers: 4,
        behaviour: 'polite',
        mix: EVENTS,
        latencyMs: { exponential: 80 },
      },
      {
        name: 'scraper',
        token: { kind: 'anonymous', ip: '198.51.100.7' },
        behaviour: 'greedy',
        mix: EVENTS,
        latencyMs: { uniform: [20, 60] },
      },
    ]);
    expect(JSON.stringify(simulate(scenario))).toBe(JSON.stringify(simulate(scenario)));
    expect(JSON.stringify(simulate({ ...scenario, seed: 43 }))).not.toBe(JSON.stringify(simulate(scenario)));
  });

  it('admits exactly 60 of a greedy unauthenticated client in an hour', () => {
    const [caller] = simulate(
      hour([
        {
          name: 'scraper',
          token: { kind: 'anonymous', ip: '198.51.100.7' },
          behaviour: 'greedy',
          mix: EVENTS,
        },
      ]),
    ).callers;
    expect(caller!.admitted).toBe(60);
    expect(caller!.denied.primary).toBe(caller!.sent - 60);
  });

  it('admits exactly 7,000 of an installation on 50 repositories and 30 users in an hour', () => {
    const [caller] = simulate(
      hour([
        {
          name: 'sync',
          token: { kind: 'app-installation', installation: '1', repositoriesCount: 50, usersCount: 30 },
          workers: 10,
          behaviour: 'greedy',
          mix: EVENTS,
        },
      ]),
    ).callers;
    expect(caller!.admitted).toBe(7_000);
  });

  it('a lone polite client is not denied again after waiting what it was told, and sends nothing while limited', () => {
    const [caller] = simulate(
      hour([
        {
          name: 'polite',
          token: { kind: 'app-installation', installation: '2', repositoriesCount: 50, usersCount: 30 },
          behaviour: 'polite',
          mix: EVENTS,
          latencyMs: 10,
        },
      ]),
    ).callers;
    expect(caller!.admitted).toBe(7_000);
    expect(caller!.denied.primary).toBe(1);
    expect(caller!.sentWhileLimited).toBe(0);
    expect(caller!.abandoned).toBe(0);
  });

  it('a poller that honours X-Poll-Interval polls once a minute, and its 304s are refunded', () => {
    const [caller] = simulate(
      hour([
        {
          name: 'notifier',
          token: { kind: 'classic', user: 'octocat' },
          behaviour: 'polite',
          poll: { unchanged: 1 },
          mix: [{ endpoint: 'GET /notifications', weight: 1 }],
        },
      ]),
    ).callers;
    expect(caller!.sent).toBe(60);
    // Every poll unchanged: every one refunded, the primary window untouched at its end.
    expect(caller!.series.gauges.find((g) => g.rule === 'primary')!.remaining.at(-1)).toBe(4_999);
  });

  it('counts time limited only within the run, and requests sent while limited only once the caller was told', () => {
    const [greedy] = simulate(
      hour(
        [
          {
            name: 'g',
            token: { kind: 'anonymous', ip: '198.51.100.9' },
            behaviour: 'greedy',
            mix: EVENTS,
            latencyMs: 1,
          },
        ],
        { durationSeconds: 600 },
      ),
    ).callers;
    expect(greedy!.limitedSeconds).toBeLessThanOrEqual(600);
    const [fixed] = simulate(
      hour(
        [
          {
            name: 'f',
            token: { kind: 'anonymous', ip: '198.51.100.10' },
            behaviour: 'fixed-rate',
            rate: 10,
            workers: 1,
            mix: EVENTS,
            latencyMs: 1000,
          },
        ],
        {
          durationSeconds: 20,
        },
      ),
    ).callers;
    // 200 sent, 60 admitted: the first refusal's answer arrives a second later, so the ~10 sent meanwhile do not count.
    expect(fixed!.sentWhileLimited).toBe(fixed!.sent - 60 - 10);
  });

  it('spaces an octokit client’s writes a second apart across all its workers', () => {
    const [octokit] = simulate(
      hour(
        [
          {
            name: 'o',
            token: { kind: 'fine-grained', user: 'o' },
            workers: 4,
            behaviour: 'octokit',
            mix: [{ endpoint: 'POST /repos/{owner}/{repo}/issues', weight: 1 }],
            latencyMs: 50,
          },
        ],
        { durationSeconds: 120 },
      ),
    ).callers;
    expect(octokit!.series.admitted[0]).toBeLessThanOrEqual(60);
    expect(octokit!.denied.content_per_minute ?? 0).toBe(0);
  });

  it('gives greedy 5-point writes what the points rule promises: a token bucket, or a sliding window', () => {
    // PUT /repos/{owner}/{repo}/notifications costs 5 points and creates no content.
    const writes = [{ endpoint: 'PUT /repos/{owner}/{repo}/notifications', weight: 1 }];
    const run = (windowModes?: Scenario['windowModes']) =>
      simulate(
        hour(
          [
            {
              name: 'writer',
              token: { kind: 'classic', user: 'writer' },
              behaviour: 'greedy',
              mix: writes,
              latencyMs: 1,
              cpuMs: 0,
            },
          ],
          { durationSeconds: 120, ...(windowModes === undefined ? {} : { windowModes }) },
        ),
      ).callers[0]!;
    // The default became the sliding log in 0.2: the token bucket is asked for by name.
    const bucket = run({ rest_points: 'bucket' });
    // 900 points full: 180 writes at once, then one write per 5 points of refill (900 per 60 s).
    expect(bucket.series.admitted[0]).toBeGreaterThanOrEqual(180 + 165);
    expect(bucket.admitted).toBeLessThanOrEqual(180 + (120 * 900) / 60 / 5 + 1);
    const strict = run();
    // Sliding (the default): never more than 900 points, 180 writes, in any 60 seconds.
    expect(strict.series.admitted[0]).toBeLessThanOrEqual(180);
    expect(strict.series.admitted[1]).toBeLessThanOrEqual(180);
  });
});

// The issue's hand-calculated cases from seed 000, run through `simulate`: each comment shows the
// calculation, each assertion the exact figure. Latency 50 ms and CPU 5 ms (the defaults) unless a
// case says otherwise; times are virtual seconds from the run's start.
import { describe, expect, it } from 'vitest';
import type { CallerSpec } from '../../src/sim/scenario.js';
import { simulate } from '../../src/sim/simulate.js';

const ISSUES = [{ endpoint: 'POST /repos/{owner}/{repo}/issues', weight: 1 }];
const EVENTS = [{ endpoint: 'GET /repos/{owner}/{repo}/issues/events', weight: 1 }];

const run = (durationSeconds: number, callers: CallerSpec[]) =>
  simulate({ seed: 20, durationSeconds, callers });

describe('seed 000 figures, through the simulator', () => {
  it('content at 2 a second: first refusal at 40 s, 80 a minute, 500 in the hour', () => {
    // seed 000, "Secondary rate limits": content "at most 80 per minute and 500 per hour".
    // Sends every 0.5 s from 0. In (t - 60, t]: the sends at 0 .. 39.5 are 80, so the send at 40.0
    // is refused (first refusal 40 s) and so is every send until 59.5. From 60.0 one send leaves the
    // window every 0.5 s as one arrives: 60.0 .. 99.5 admitted (80), 100 .. 119.5 refused, and so on:
    // 80 in each minute. Six minutes give 480; minute 6 admits 360.0 .. 369.5 (20) and the hour
    // holds 500. At 370.0 the minute window (310, 370] holds 310.5 .. 339.5 (59) and 360 .. 369.5
    // (20): 79, room for one; the hour rule refuses: its first refusal, 370 s.
    // The first content leaves the hour window at 3,600 s, the run's end: 500 admitted.
    const [caller] = run(3600, [
      {
        name: 'bot',
        token: { kind: 'fine-grained', user: 'bot' },
        behaviour: 'fixed-rate',
        rate: 2,
        mix: ISSUES,
      },
    ]).callers;
    expect(caller!.firstRefusalAt).toBe(40);
    expect(caller!.rules.content_per_minute?.firstRefusalAt).toBe(40);
    expect(caller!.rules.content_per_hour?.firstRefusalAt).toBe(370);
    expect(caller!.admitted).toBe(500);
    expect(caller!.series.bucketSeconds).toBe(60);
    expect(caller!.series.admitted.slice(0, 8)).toEqual([80, 80, 80, 80, 80, 80, 20, 0]);
    // 7,200 sent, none other than content refused (10 points a second: 600 a minute, under 900).
    expect(caller!.sent).toBe(7200);
    expect(Object.keys(caller!.denied).sort()).toEqual(['content_per_hour', 'content_per_minute']);
  });

  it('20 GETs a second: first refusal at 45 s, at most 900 a minute', () => {
    // seed 000: "at most 900 [points] for REST endpoints" per minute, a GET costs 1. Sends every
    // 50 ms: 0 .. 44.95 s are 900; the send at 45.0 s is refused (first refusal 45 s). Then one
    // leaves as one arrives from 60.0: 900 admitted in each minute, until the primary 5,000 of the
    // user's hour is spent: minutes 0-4 admit 4,500, minute 5 the last 500 (60 GET a second).
    const [caller] = run(600, [
      {
        name: 'reader',
        token: { kind: 'fine-grained', user: 'reader' },
        behaviour: 'fixed-rate',
        rate: 20,
        mix: EVENTS,
      },
    ]).callers;
    expect(caller!.firstRefusalAt).toBe(45);
    expect(caller!.rules.rest_points?.firstRefusalAt).toBe(45);
    expect(caller!.series.admitted.slice(0, 7)).toEqual([900, 900, 900, 900, 900, 500, 0]);
    expect(caller!.admitted).toBe(5000);
  });

  it('exactly 900 points a minute, evenly spaced, is never refused', () => {
    // Three callers of one installation (enterprise cloud: 15,000 an hour, seed 000), each a GET
    // every 200 ms, started 0, 67 and 133 ms in: each has exactly 300 sends in any (t - 60, t],
    // together exactly 900 points: at the ceiling, never over it. Ten minutes: 9,000 admitted, 0 refused.
    const token = { kind: 'app-installation' as const, installation: '9', enterpriseCloud: true };
    const caller = (name: string, startSeconds: number): CallerSpec => ({
      name,
      token,
      behaviour: 'fixed-rate',
      rate: 5,
      startSeconds,
      mix: EVENTS,
    });
    const report = run(600, [caller('a', 0), caller('b', 0.067), caller('c', 0.133)]);
    expect(report.callers.map((c) => c.admitted)).toEqual([3000, 3000, 3000]);
    expect(report.limits).toEqual({});
    expect(report.identities).toEqual([
      { identity: 'installation:9', callers: ['a', 'b', 'c'], admitted: 9000, denied: {} },
    ]);
  });

  it('the installation formula: 50 a repository and 50 a user beyond 20, at most 12,500', () => {
    // seed 000, "Primary rate limits": 30 repositories, 25 users: 5,000 + 50 x 10 + 50 x 5 = 5,750;
    // 100 repositories, 200 users: 5,000 + 4,000 + 9,000 = 18,000, over the ceiling: 12,500.
    const greedy = (installation: string, repositoriesCount: number, usersCount: number): CallerSpec => ({
      name: installation,
      token: { kind: 'app-installation', installation, repositoriesCount, usersCount },
      behaviour: 'greedy',
      workers: 4,
      mix: EVENTS,
    });
    const report = run(3600, [greedy('small', 30, 25), greedy('large', 100, 200)]);
    expect(report.callers.map((c) => c.admitted)).toEqual([5750, 12_500]);
    expect(report.callers[1]!.series.gauges[0]).toMatchObject({
      rule: 'primary',
      resource: 'core',
      limit: 12_500,
    });
  });

  it('a polite client waits until the reset after a primary refusal, and sends nothing meanwhile', () => {
    // seed 000: 60 an hour for an address; rule 1: "do not retry before x-ratelimit-reset".
    // One worker, 50 ms answers: sends at 0, 0.05, .. 2.95 (60 admitted); the send at 3.0 s is
    // refused; the window opened at 0 ends at 3,600 s, so the client retries then: 60 more at
    // 3,600 .. 3,602.95, refused at 3,603.0, waits to 7,200 (the end). Limited 3,600 - 3.0 and
    // 7,200 - 3,603.0: 7,194 s.
    const [caller] = run(7200, [
      { name: 'script', token: { kind: 'anonymous', ip: '198.51.100.4' }, behaviour: 'polite', mix: EVENTS },
    ]).callers;
    expect(caller!.admitted).toBe(120);
    expect(caller!.denied).toEqual({ primary: 2 });
    expect(caller!.firstRefusalAt).toBe(3);
    expect(caller!.sentWhileLimited).toBe(0);
    expect(caller!.limitedSeconds).toBe(7194);
    expect(caller!.series.admitted[60]).toBe(60);
  });

  it('a polite client waits what retry-after says after a content refusal', () => {
    // A GET-free writer at 2 a second, polite. Refused at 40.0 (as above); retry-after: the send at
    // 0 leaves the minute window at 60.0, ceil(60.0 - 40.0) = 20 s, counted from the answer at
    // 40.05: the retry goes at 60.05 and is admitted; the next sends pace from it (60.55, 61.05, ..)
    // and each finds the one sent 60 s before gone, until 99.55 (80 since 60.05). Refused at 100.05
    // (60.05 .. 99.55 in the window), retry-after ceil(120.05 - 100.05) = 20 from the answer at
    // 100.10: retried at 120.10, then 120.60 .. 129.60: 20 more. 130 s: 80 + 80 + 20 = 180
    // admitted, 2 refused, limited [40.0, 60.0) and [100.05, 120.05): 40 s.
    const [caller] = run(130, [
      {
        name: 'writer',
        token: { kind: 'fine-grained', user: 'writer' },
        behaviour: 'polite',
        rate: 2,
        mix: ISSUES,
      },
    ]).callers;
    expect(caller!.admitted).toBe(180);
    expect(caller!.denied).toEqual({ content_per_minute: 2 });
    expect(caller!.firstRefusalAt).toBe(40);
    expect(caller!.sentWhileLimited).toBe(0);
    expect(caller!.rules.content_per_minute?.limitedSeconds).toBe(40);
  });
});

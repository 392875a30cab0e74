// The secondary limits of seed 000 ("Secondary rate limits", lines 361-363), computed by hand and
// checked at the limiter (createLimiter over the memory store, an injected clock) in the default
// configuration. Each case states its hand calculation; each assertion is the exact figure.
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/index.js';
import { T0 } from '../limits/support.js';

/** The most admitted in any half-open window (t - span, t] (windows ending at an admission are the worst). */
function worstWindow(times: readonly number[], span: number): number {
  let worst = 0;
  let first = 0;
  for (let i = 0; i < times.length; i++) {
    while (times[first]! <= times[i]! - span) first++;
    worst = Math.max(worst, i - first + 1);
  }
  return worst;
}

/** Sends `request` at `at(k)` ms for `durationMs`; completes each admitted one at once. */
function drive(
  request: { method: string; content?: boolean },
  durationMs: number,
  at: (k: number) => number,
  cpuMs = 0,
) {
  let now = T0;
  const limiter = createLimiter({ clock: () => now });
  const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
  const admitted: number[] = [];
  const refused: { at: number; rule: string | null; retryAfter: string | undefined }[] = [];
  for (let k = 0; at(k) < durationMs; k++) {
    now = T0 + at(k);
    const verdict = limiter.admit({ identity, ...request });
    if (verdict.allowed) {
      admitted.push(at(k));
      limiter.complete(verdict.ticket!, { status: 201, cpuMs });
    } else refused.push({ at: at(k), rule: verdict.rule, retryAfter: verdict.headers['retry-after'] });
  }
  return { admitted, refused };
}

describe('seed 000 secondary limits, by hand (default configuration)', () => {
  it('content at 2 per second: first refusal at 40 s, at most 80 a minute and 500 an hour', () => {
    // One issue creation every 500 ms. The 80th is at 39.5 s, so the 81st, at 40 s, finds 80 in
    // (-20 s, 40 s]: refused, until the first leaves at 60 s. Each minute then admits 80 (at
    // 60k + 0 .. 60k + 39.5 s): 6 minutes give 480, the 7th 20 more (360 s .. 369.5 s): 500, and
    // the hour rule refuses until the first leaves at 3,600 s. Two hours: 1,000 admitted.
    const { admitted, refused } = drive({ method: 'POST', content: true }, 7_200_000, (k) => k * 500);
    expect(refused[0]).toEqual({ at: 40_000, rule: 'content_per_minute', retryAfter: '20' });
    expect(admitted.filter((t) => t < 60_000)).toHaveLength(80);
    expect(worstWindow(admitted, 60_000)).toBe(80);
    expect(admitted.filter((t) => t < 3_600_000)).toHaveLength(500);
    expect(admitted[499]).toBe(369_500);
    expect(refused.find((r) => r.at === 370_000)).toEqual({
      at: 370_000,
      rule: 'content_per_hour',
      retryAfter: '3230', // the first leaves the hour at 3,600 s
    });
    expect(worstWindow(admitted, 3_600_000)).toBe(500);
    expect(admitted).toHaveLength(1_000);
  });

  it('points at 20 GETs a second: first refusal at 45 s, at most 900 a minute', () => {
    // One GET (1 point) every 50 ms: the 900th at 44.95 s; the 901st, at 45 s, finds 900 points
    // in (-15 s, 45 s]: refused until the first leaves at 60 s. Three minutes: 2,700 admitted
    // (900 per minute, 900 of them in any 60 s), 900 refused per minute of 1,200 sent.
    const { admitted, refused } = drive({ method: 'GET' }, 180_000, (k) => k * 50);
    expect(refused[0]).toEqual({ at: 45_000, rule: 'rest_points', retryAfter: '15' });
    expect(admitted.filter((t) => t < 60_000)).toHaveLength(900);
    expect(worstWindow(admitted, 60_000)).toBe(900);
    expect(admitted).toHaveLength(2_700);
    expect(refused).toHaveLength(900);
  });

  it('exactly 900 points a minute, evenly spaced: nothing refused (the issue saw 1,200 under strict)', () => {
    // GET k at floor(k x 200 / 3) ms: GET k + 900 comes exactly 60,000 ms after GET k, so every
    // window (t - 60 s, t] holds at most 900. Five minutes: 4,500 GETs (within the primary 5,000).
    const { admitted, refused } = drive({ method: 'GET' }, 300_000, (k) => Math.floor((k * 200) / 3));
    expect(refused).toHaveLength(0);
    expect(admitted).toHaveLength(4_500);
    expect(worstWindow(admitted, 60_000)).toBe(900);
  });

  it('98% of the ceiling (882 points a minute), evenly spaced: never refused', () => {
    const { admitted, refused } = drive({ method: 'GET' }, 300_000, (k) => Math.floor((k * 60_000) / 882));
    expect(refused).toHaveLength(0);
    expect(admitted).toHaveLength(4_410);
  });

  it('a burst of 900 points and one of 80 content requests after a quiet window pass whole', () => {
    let now = T0;
    const limiter = createLimiter({ clock: () => now });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    const burst = (n: number, request: { method: string; content?: boolean }) => {
      let admitted = 0;
      for (let i = 0; i < n; i++) {
        const verdict = limiter.admit({ identity, ...request });
        if (verdict.allowed) {
          admitted++;
          limiter.complete(verdict.ticket!, { status: 200 });
        }
      }
      return admitted;
    };
    expect(burst(900, { method: 'GET' })).toBe(900);
    expect(burst(1, { method: 'GET' })).toBe(0);
    now += 60_000; // the quiet window: every point has left
    expect(burst(900, { method: 'GET' })).toBe(900);
    now += 60_000;
    // 80 issue creations of 5 points: 400 points, within 900.
    expect(burst(80, { method: 'POST', content: true })).toBe(80);
    expect(burst(1, { method: 'POST', content: true })).toBe(0);
  });

  it('CPU: admits nothing while 90 s were charged in the last 60 s; the charge leaves 60-61 s later', () => {
    // 90 requests of 1 s CPU each, completed at T0 .. T0 + 89 ms: 90 s charged, stamped T0 (the
    // start of its second). A request at T0 + 500 ms is refused until the charges leave at
    // T0 + 61 s (60 s window, and at most the 1 s of the stamp): retry-after 61 - 0.5 = 60.5 s -> 61.
    let now = T0;
    const limiter = createLimiter({ clock: () => now });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    for (let i = 0; i < 90; i++, now++)
      limiter.complete(limiter.admit({ identity, method: 'GET' }).ticket!, { status: 200, cpuMs: 1000 });
    now = T0 + 500;
    const refused = limiter.admit({ identity, method: 'GET' });
    expect(refused.rule).toBe('cpu');
    expect(refused.headers['retry-after']).toBe('61');
    now = T0 + 60_999;
    expect(limiter.admit({ identity, method: 'GET' }).rule).toBe('cpu');
    now = T0 + 61_000;
    expect(limiter.admit({ identity, method: 'GET' }).allowed).toBe(true);
  });

  it('CPU in flight may overshoot the ceiling by what the requests in flight charge, each at most 90 s', () => {
    // 100 requests admitted at once (the concurrency ceiling) while nothing is charged, each then
    // charging 1e6 ms (clamped to 90 s): 9,000 s counted, 100 x 90 s, and nothing admitted until it leaves.
    let now = T0;
    const limiter = createLimiter({ clock: () => now });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    const tickets = Array.from({ length: 100 }, () => limiter.admit({ identity, method: 'GET' }).ticket!);
    for (const ticket of tickets) limiter.complete(ticket, { status: 200, cpuMs: 1e6 });
    expect(limiter.store.read(identity.key)!.logs![2]).toEqual([T0, 100 * 90_000]);
    now = T0 + 60_999;
    expect(limiter.admit({ identity, method: 'GET' }).rule).toBe('cpu');
    now = T0 + 61_000;
    expect(limiter.admit({ identity, method: 'GET' }).allowed).toBe(true);
  });
});

// Each window mode keeps its stated guarantee for random arrival times and costs:
// - sliding (the default): at most C in ANY half-open window (t - W, t], and nothing refused that
//   would keep every such window at or under C (the sliding log is exact);
// - bucket: at most C + C * t / W admitted in any t ms (so at most 2C in one window).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/index.js';
import { defaultLimits } from '../../src/limits/default-limits.js';
import type { LimitsConfig, WindowMode } from '../../src/limits/limits-config.js';
import { T0 } from '../limits/support.js';

const base = defaultLimits();

function configWith(mode: WindowMode): LimitsConfig {
  return {
    ...base,
    secondary: {
      ...base.secondary,
      // Small capacities so random runs reach them; the windows stay the shipped ones.
      points: { ...base.secondary.points, rest: 40 },
      content: { perMinute: 6, perHour: 15 },
      concurrency: { ...base.secondary.concurrency, limit: 1_000_000 },
      windowModes: {
        rest_points: mode,
        graphql_points: mode,
        content_per_minute: mode,
        content_per_hour: mode,
      },
    },
  };
}

const arrivals = fc.array(
  fc.record({
    gap: fc.oneof(fc.nat(200), fc.nat(5_000), fc.nat(40_000), fc.nat(700_000)),
    cost: fc.integer({ min: 0, max: 12 }),
    content: fc.boolean(),
  }),
  { minLength: 1, maxLength: 400 },
);

/** The most admitted in any window of `windowMs` (windows ending at an admission are the worst). */
function worstWindow(
  admitted: readonly { at: number; amount: number }[],
  windowMs: number,
  span = windowMs,
): number {
  let worst = 0;
  let sum = 0;
  let first = 0;
  for (let i = 0; i < admitted.length; i++) {
    sum += admitted[i]!.amount;
    while (admitted[first]!.at <= admitted[i]!.at - span) sum -= admitted[first++]!.amount;
    worst = Math.max(worst, sum);
  }
  return worst;
}

function run(mode: WindowMode, events: { gap: number; cost: number; content: boolean }[]) {
  const config = configWith(mode);
  let now = T0;
  const limiter = createLimiter({ clock: () => now, config });
  const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
  const points: { at: number; amount: number }[] = [];
  const content: { at: number; amount: number }[] = [];
  for (const e of events) {
    now += e.gap;
    const v = limiter.admit({ identity, cost: e.cost, content: e.content });
    if (!v.allowed) continue;
    limiter.complete(v.ticket!, { status: 200 });
    points.push({ at: now, amount: e.cost });
    if (e.content) content.push({ at: now, amount: 1 });
  }
  return { config, points, content };
}

describe('window modes keep their guarantees', () => {
  it('sliding: never more than C in any window (t - W, t] (points, content per minute and per hour)', () => {
    fc.assert(
      fc.property(arrivals, (events) => {
        const { config, points, content } = run('sliding', events);
        const sec = config.secondary;
        expect(worstWindow(points, sec.points.windowMs)).toBeLessThanOrEqual(sec.points.rest);
        expect(worstWindow(content, 60_000)).toBeLessThanOrEqual(sec.content.perMinute);
        expect(worstWindow(content, 3_600_000)).toBeLessThanOrEqual(sec.content.perHour);
      }),
    );
  });

  it('bucket: at most C + C * t / W in any t ms, for t of half, one and two windows', () => {
    fc.assert(
      fc.property(arrivals, (events) => {
        const { config, points, content } = run('bucket', events);
        const sec = config.secondary;
        for (const factor of [0.5, 1, 2]) {
          const t = sec.points.windowMs * factor;
          expect(worstWindow(points, t)).toBeLessThanOrEqual(sec.points.rest * (1 + factor));
          expect(worstWindow(content, 60_000 * factor)).toBeLessThanOrEqual(
            sec.content.perMinute * (1 + factor),
          );
        }
      }),
    );
  });

  it('sliding admits a full burst of C after a quiet window, then refuses until the burst leaves the window', () => {
    let now = T0;
    const config = configWith('sliding');
    const limiter = createLimiter({ clock: () => now, config });
    const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
    limiter.admit({ identity, cost: 40 });
    now += 60_000; // one quiet window
    for (let i = 0; i < 8; i++) expect(limiter.admit({ identity, cost: 5 }).allowed).toBe(true);
    const refused = limiter.admit({ identity, cost: 5 });
    expect(refused.rule).toBe('rest_points');
    expect(refused.headers['retry-after']).toBe('60');
    now += 59_999;
    expect(limiter.admit({ identity, cost: 5 }).rule).toBe('rest_points');
    now += 1;
    expect(limiter.admit({ identity, cost: 5 }).allowed).toBe(true);
  });

  it('sliding refuses nothing a caller keeping every window at or under C asks for (random steady callers)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 59_999 }),
        (perWindow, cost, phase) => {
          // perWindow requests of `cost` evenly spaced, so each window of 60 s holds at most
          // perWindow * cost points: within C (40) when perWindow * cost <= 40.
          const n = Math.min(perWindow, Math.floor(40 / cost));
          let now = T0 + phase;
          const limiter = createLimiter({ clock: () => now, config: configWith('sliding') });
          const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
          const gap = Math.ceil(60_000 / n);
          for (let i = 0; i < 4 * n; i++, now += gap)
            expect(limiter.admit({ identity, cost, countsPrimary: false }).allowed).toBe(true);
        },
      ),
    );
  });

  it('bucket lets 2C through in one window where sliding holds C (the difference the seed\'s "at most" makes)', () => {
    const counts = (['bucket', 'sliding'] as const).map((mode) => {
      let now = T0;
      const limiter = createLimiter({ clock: () => now, config: configWith(mode) });
      const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
      let admitted = 0;
      for (let ms = 0; ms < 59_000; ms += 250) {
        now = T0 + ms;
        if (limiter.admit({ identity, cost: 1 }).allowed) admitted++;
      }
      return admitted;
    });
    expect(counts[0]).toBeGreaterThan(40 + 30);
    expect(counts[1]).toBe(40);
  });

  it("the issue's counts with the shipped numbers: bucket lets 1,795 points through in 60 s, the default exactly 900", () => {
    const pointsIn60s = (windowModes?: { rest_points: WindowMode | 'strict' }) => {
      let now = T0;
      const limiter = createLimiter({ clock: () => now, ...(windowModes && { windowModes }) });
      const identity = limiter.identify({ kind: 'classic', user: 'octocat' });
      let points = 0;
      for (let ms = 0; ms < 60_000; ms += 5) {
        now = T0 + ms;
        const verdict = limiter.admit({ identity, method: 'GET', countsPrimary: false });
        if (verdict.allowed) {
          points += 1;
          limiter.complete(verdict.ticket!, { status: 200 });
        }
      }
      return points;
    };
    expect(pointsIn60s({ rest_points: 'bucket' })).toBeGreaterThan(1_700);
    expect(pointsIn60s()).toBe(900);
    expect(pointsIn60s({ rest_points: 'sliding' })).toBe(900);
  });

  it('takes window modes as a limiter option, reads `strict` as `sliding`, refuses unknown rules and modes with the valid choices', () => {
    expect(createLimiter().config.secondary.windowModes).toEqual({
      rest_points: 'sliding',
      graphql_points: 'sliding',
      content_per_minute: 'sliding',
      content_per_hour: 'sliding',
    });
    expect(
      createLimiter({ windowModes: { content_per_hour: 'bucket', rest_points: 'strict' } }).config.secondary
        .windowModes,
    ).toMatchObject({ content_per_hour: 'bucket', content_per_minute: 'sliding', rest_points: 'sliding' });
    expect(() => createLimiter({ windowModes: { cpu: 'bucket' } as never })).toThrow(
      /names no rule `cpu`; valid rules: rest_points, graphql_points, content_per_minute, content_per_hour/,
    );
    expect(() => createLimiter({ windowModes: { rest_points: 'exact' } as never })).toThrow(
      /`windowModes.rest_points` is `exact`; valid modes: sliding, bucket, strict/,
    );
  });
});

// The HTML report's time axis: a unit fit for the run's length, round ticks along the whole run.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { duration } from '../../src/sim/report-format.js';
import { tickLabel, timeAxis } from '../../src/sim/report-html-axis.js';

const labels = (seconds: number) => {
  const axis = timeAxis(seconds);
  return { unit: axis.unit.name, labels: axis.ticks.map((tick) => tickLabel(axis, tick)) };
};

describe('the time axis of a caller', () => {
  it('reads an hour in minutes, ten by ten', () => {
    expect(labels(3600)).toEqual({ unit: 'minutes', labels: ['0', '10', '20', '30', '40', '50', '60'] });
  });

  it('reads a two-minute burst in seconds', () => {
    expect(labels(122.4)).toEqual({ unit: 'seconds', labels: ['0', '20', '40', '60', '80', '100', '120'] });
  });

  it('labels a run over 720 minutes in hours up to its end, not "minute 719"', () => {
    expect(labels(43_260)).toEqual({
      unit: 'hours',
      labels: ['0', '2', '4', '6', '8', '10', '12'],
    });
  });

  it('reads a year in days', () => {
    const year = labels(365 * 86_400);
    expect(year.unit).toBe('days');
    expect(year.labels).toEqual(['0', '60', '120', '180', '240', '300', '360']);
  });

  it('has round, evenly spaced ticks from 0 to at most the end, 2 to 9 of them, for any run', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.3, max: 1e10, noNaN: true }), (seconds) => {
        const { ticks, end, unit } = timeAxis(seconds);
        expect(end).toBe(seconds);
        expect(ticks[0]).toBe(0);
        expect(ticks.length).toBeGreaterThanOrEqual(2);
        expect(ticks.length).toBeLessThanOrEqual(9);
        expect(ticks.at(-1)!).toBeLessThanOrEqual(end * (1 + 1e-9));
        const step = ticks[1]! - ticks[0]!;
        // Less than one step is left unlabelled after the last tick.
        expect(end - ticks.at(-1)!).toBeLessThan(step);
        for (const [i, tick] of ticks.entries()) expect(tick).toBeCloseTo(i * step, 6);
        // The unit is the largest that still gives the run more than about one unit.
        expect(end / unit.seconds).toBeLessThanOrEqual(unit.name === 'days' ? Number.POSITIVE_INFINITY : 180);
      }),
    );
  });

  it('gives an empty run an axis of one second', () => {
    expect(timeAxis(0)).toMatchObject({ end: 1, ticks: [0, 0.2, 0.4, 0.6, 0.8, 1] });
  });
});

describe('a time for a person', () => {
  it('never reads 0 s for a time above 0, and keeps two units at most', () => {
    expect(duration(0.04)).toBe('0.04 s');
    expect(duration(40)).toBe('40 s');
    expect(duration(725)).toBe('12 min 5 s');
    expect(duration(12_000)).toBe('3 h 20 min');
    expect(duration(7200)).toBe('2 h');
    expect(duration(187_200)).toBe('2 d 4 h');
  });
});

// The HTML report's corners, without a browser: an empty run, a caller that never sent.
import { describe, expect, it } from 'vitest';
import { htmlReport } from '../../src/sim/report-html.js';
import { simulate } from '../../src/sim/simulate.js';

describe('the HTML report', () => {
  it('renders a run without callers as its one line, no chart', () => {
    const page = htmlReport(simulate({ seed: 1, durationSeconds: 60, callers: [] }), 'empty');
    expect(page).toContain('1 min of virtual time (60 s), seed 1, 0 requests simulated.');
    expect(page).not.toContain('<svg');
  });

  it('gives a caller that never sent its charts on the run axis, drawing no line where nothing is known', () => {
    const report = simulate({
      seed: 1,
      durationSeconds: 600,
      callers: [
        {
          name: 'late',
          token: { kind: 'anonymous', ip: '198.51.100.7' },
          behaviour: 'polite',
          startSeconds: 900,
          mix: [{ endpoint: 'GET /rate_limit', weight: 1 }],
        },
      ],
    });
    const page = htmlReport(report, 'late');
    const charts = page.match(/<svg class="chart"[^>]*>/g) ?? [];
    expect(charts.length).toBe(1 + report.callers[0]!.series.gauges.length);
    for (const chart of charts) expect(chart).toContain('data-x-domain="0 600"');
    expect(page).not.toContain('d=""');
    expect(page).toContain('sent 0, admitted 0, completed 0, never refused');
  });
});

// The simulator's HTML report in a real headless Chromium (Debian's `chromium`, driven by
// playwright-core), for reports the real simulate() produced: one time axis per caller shared by
// every chart, a chart per rule gauge topped at its limit with its limit line, the first-refusal
// and work-done markers where the report puts them; offline, without a console error.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedTables } from '../../src/policy/shipped-tables.js';
import type { PlannerAdvice } from '../../src/sim/planner-types.js';
import { readScenario } from '../../src/sim/read-scenario.js';
import { recommend } from '../../src/sim/recommend.js';
import { htmlReport } from '../../src/sim/report-html.js';
import { simulate } from '../../src/sim/simulate.js';
import type { SimulationReport } from '../../src/sim/simulation-report.js';
import { CHROMIUM, chromiumAvailable, MISSING } from '../support/chromium.js';
import { type ChartGeometry, chartsOf, pixelsOf } from './html-report-geometry.js';

const available = chromiumAvailable();
if (!available && !process.env.CI) console.log(MISSING);

const tables = shippedTables();
const fromYaml = (yaml: string) => simulate(readScenario(yaml, 'inline.yaml', tables), tables);

// Two callers on one user's budget for 13 hours (a run over 720 minutes): a slow reader and a bot
// that creates issues in bursts, so the content rules refuse it; a third, on its own, searches and
// asks GraphQL, so it has a primary gauge per resource.
const SHARED_13_HOURS = `seed: 7
duration_seconds: 46800
callers:
  - name: reader
    token: { kind: fine-grained, user: octocat }
    rate: 0.05
    behaviour: polite
    mix: [{ endpoint: "GET /repos/{owner}/{repo}/issues/events" }]
  - name: bot
    token: { kind: fine-grained, user: octocat }
    workers: 2
    work: 900
    behaviour: polite
    mix: [{ endpoint: "POST /repos/{owner}/{repo}/issues" }]
  - name: searcher
    token: { kind: fine-grained, user: hubot }
    rate: 1
    behaviour: octokit
    mix:
      - { endpoint: "GET /search/issues", weight: 1 }
      - { endpoint: "POST /graphql", weight: 1 }
`;

describe.runIf(available || process.env.CI)('the HTML report in Chromium', () => {
  const dir = process.env.TOLLGATE_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'tollgate-html-'));
  let browser: Browser;
  beforeAll(async () => {
    if (!available) throw new Error(MISSING);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    if (process.env.TOLLGATE_SCREENSHOTS === undefined) rmSync(dir, { recursive: true, force: true });
  });

  /** The page opened offline: any request it makes, console error or page error is a problem. */
  async function open(
    report: SimulationReport & { recommendations?: readonly PlannerAdvice[] },
    name: string,
  ): Promise<{ tab: Page; problems: string[] }> {
    const file = join(dir, `${name}.html`);
    writeFileSync(file, htmlReport(report, name));
    const tab = await browser.newPage({ viewport: { width: 880, height: 1000 } });
    const problems: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    tab.on('pageerror', (error) => problems.push(error.message));
    await tab.route('**/*', (route) => {
      if (route.request().url().startsWith('file:')) return route.continue();
      problems.push(route.request().url());
      return route.abort();
    });
    await tab.goto(`file://${file}`);
    await tab.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
    return { tab, problems };
  }

  /** What every caller's charts must show, read from the rendered page against the report. */
  function expectCallerCharts(report: SimulationReport, charts: readonly ChartGeometry[]): void {
    for (const caller of report.callers) {
      const mine = charts.filter((chart) => chart.caller === caller.name);
      // One x-domain per caller, shared by all its charts: the same domain, the same ticks at the same pixels.
      expect(new Set(mine.map((chart) => chart.domain)), caller.name).toEqual(
        new Set([`0 ${report.seconds}`]),
      );
      const ticks = JSON.stringify(mine[0]!.ticks);
      for (const chart of mine)
        expect(JSON.stringify(chart.ticks), `${caller.name} ${chart.rule}`).toBe(ticks);
      // Every rule gauge the caller meets: a chart topped at the limit, with the limit line at its top.
      for (const gauge of caller.series.gauges) {
        const chart = mine.find(
          (each) => each.rule === gauge.rule && each.resource === (gauge.resource ?? null),
        );
        expect(chart, `${caller.name}: no chart for ${gauge.rule}`).toBeDefined();
        expect(chart!.top).toBe(gauge.limit);
        expect(chart!.limit?.value).toBe(gauge.limit);
        expect(chart!.limit!.y).toBeCloseTo(chart!.plotTop, 0);
        const refusal = caller.rules[gauge.rule]?.firstRefusalAt ?? null;
        const marker = chart!.markers.find((each) => each.kind === 'first-refusal');
        expect(marker?.at ?? null, `${caller.name} ${gauge.rule} first refusal`).toBe(refusal);
      }
      const traffic = mine.find((chart) => chart.kind === 'traffic')!;
      expect(traffic.markers.find((each) => each.kind === 'first-refusal')?.at ?? null).toBe(
        caller.firstRefusalAt,
      );
      for (const chart of mine) {
        expect(chart.markers.find((each) => each.kind === 'work-done')?.at ?? null).toBe(caller.workDoneAt);
        // Each marker stands where the axis puts its time: between the ticks, in proportion.
        for (const marker of chart.markers)
          expect(marker.x).toBeCloseTo(chart.plotLeft + (marker.at / report.seconds) * chart.plotWidth, 0);
      }
    }
  }

  it('draws the content burst: the content gauge meets its limit line, its first refusal and the work done marked, the advice on top', async () => {
    const file = 'examples/sim/content-burst.yaml';
    const scenario = readScenario(readFileSync(file, 'utf8'), file, tables);
    const report = simulate(scenario, tables);
    const recommendations = recommend(scenario, tables);
    const { tab, problems } = await open({ ...report, recommendations }, 'content-burst');
    try {
      const charts = await chartsOf(tab);
      expectCallerCharts(report, charts);
      const content = charts.find((chart) => chart.rule === 'content_per_minute')!;
      expect(content.markers.map((marker) => marker.kind).sort()).toEqual(['first-refusal', 'work-done']);
      // The limit line is drawn in red, and the used line reaches it: red and green pixels in the screenshot.
      const pixels = await pixelsOf(tab, 'svg[data-rule="content_per_minute"]');
      expect(pixels.red).toBeGreaterThan(100);
      expect(pixels.green).toBeGreaterThan(100);
      // The planner's advice heads the page: its pace and the rule that binds.
      const advice = recommendations[0]!;
      const item = await tab.locator('section.advice li[data-advice="importer"]').textContent();
      expect(item).toContain(`${advice.rate} requests/s with ${advice.workers} worker`);
      expect(item).toContain(advice.binding!.text);
      expect(problems).toEqual([]);
    } finally {
      await tab.close();
    }
  }, 60_000);

  it('draws callers sharing one user, and one with a primary gauge per resource, over 13 hours on axes labelled in hours up to 12, not "minute 719"', async () => {
    const report = fromYaml(SHARED_13_HOURS);
    const { tab, problems } = await open(report, 'shared-13-hours');
    try {
      const charts = await chartsOf(tab);
      expectCallerCharts(report, charts);
      for (const chart of charts) {
        expect(chart.unit).toBe('hours from the start');
        expect(chart.ticks.map((tick) => tick.label)).toEqual(['0', '2', '4', '6', '8', '10', '12']);
      }
      // No label on any chart counts in minutes (the old page ended a 13-hour axis at "minute 719").
      const labels = await tab.locator('svg text').allTextContents();
      expect(labels.filter((label) => /minute/.test(label))).toEqual([]);
      expect(await tab.locator('table.identities tbody tr').count()).toBe(report.identities.length);
      const searcher = charts.filter((chart) => chart.caller === 'searcher' && chart.rule === 'primary');
      expect(searcher.map((chart) => chart.resource).sort()).toEqual(['graphql', 'search']);
      expect(problems).toEqual([]);
    } finally {
      await tab.close();
    }
  }, 60_000);
});

// The simulator's HTML report in a real headless Chromium (Debian's `chromium`, driven by
// playwright-core): it renders its charts, offline, without a console error.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { shippedTables } from '../../src/policy/shipped-tables.js';
import { htmlReport, readScenario, simulate } from '../../src/sim/index.js';

const CHROMIUM = '/usr/bin/chromium';
const MISSING =
  'chromium not found: the HTML report test needs it (Debian: `apt-get install -y chromium`); under CI=true it fails';
function chromiumAvailable(): boolean {
  try {
    execFileSync(CHROMIUM, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const available = chromiumAvailable();
if (!available && !process.env.CI) console.log(MISSING);

describe.runIf(available || process.env.CI)('the HTML report in Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-html-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('draws its charts without a console error, and the screenshot shows them', async () => {
    if (!available) throw new Error(MISSING);
    const file = 'examples/sim/content-burst.yaml';
    const scenario = readScenario(readFileSync(file, 'utf8'), file, shippedTables());
    const page = join(dir, 'report.html');
    writeFileSync(page, htmlReport(simulate(scenario), 'content burst'));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const tab = await browser.newPage({ viewport: { width: 900, height: 1200 } });
      const problems: string[] = [];
      tab.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      tab.on('pageerror', (error) => problems.push(error.message));
      // Offline: any request the page makes fails the test.
      await tab.route('**/*', (route) => {
        if (route.request().url().startsWith('file:')) return route.continue();
        problems.push(route.request().url());
        return route.abort();
      });
      await tab.goto(`file://${page}`);
      expect(await tab.locator('svg').count()).toBe(3);
      expect(await tab.locator('polyline').count()).toBe(4);
      const screenshot = await tab.locator('svg').nth(1).screenshot();
      writeFileSync(join(dir, 'chart.png'), screenshot);
      // The admitted line is drawn: count its blue pixels in the rendered chart.
      const blue = await tab.evaluate(async (png: string) => {
        const image = new Image();
        image.src = `data:image/png;base64,${png}`;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.width;
        canvas.height = image.height;
        const context = canvas.getContext('2d')!;
        context.drawImage(image, 0, 0);
        const { data } = context.getImageData(0, 0, image.width, image.height);
        let count = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i + 2]! > 120 && data[i]! < 90) count++;
        return count;
      }, screenshot.toString('base64'));
      expect(blue).toBeGreaterThan(50);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});

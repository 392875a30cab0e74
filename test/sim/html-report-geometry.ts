// What the HTML report's charts look like once Chromium has laid them out: positions read from the
// rendered page (getBoundingClientRect), pixels from a screenshot.
import type { Page } from 'playwright-core';

export interface ChartGeometry {
  readonly caller: string;
  readonly kind: string;
  readonly rule: string | null;
  /** A primary gauge's resource. */
  readonly resource: string | null;
  /** `data-x-domain`: "0 END" in virtual seconds. */
  readonly domain: string;
  readonly top: number;
  readonly unit: string;
  /** Rendered x of each tick label's centre, from the chart's left edge, and its text. */
  readonly ticks: readonly { label: string; x: number }[];
  readonly plotLeft: number;
  readonly plotTop: number;
  readonly plotWidth: number;
  readonly limit: { value: number; y: number } | null;
  readonly markers: readonly { kind: string; rule: string | null; at: number; x: number }[];
}

/** Every chart of the page, in order. */
export function chartsOf(tab: Page): Promise<ChartGeometry[]> {
  return tab.$$eval('svg.chart', (svgs) =>
    svgs.map((svg) => {
      const origin = svg.getBoundingClientRect();
      const box = (element: Element) => {
        const rect = element.getBoundingClientRect();
        return {
          x: rect.left - origin.left,
          y: rect.top - origin.top,
          width: rect.width,
          height: rect.height,
        };
      };
      const plot = box(svg.querySelector('rect')!);
      const limit = svg.querySelector('g.limit');
      const limitLine = limit === null ? null : box(limit.querySelector('line')!);
      return {
        caller: svg.closest('section')?.getAttribute('data-caller') ?? '',
        kind: svg.getAttribute('data-chart') ?? '',
        rule: svg.getAttribute('data-rule'),
        resource: svg.getAttribute('data-resource'),
        domain: svg.getAttribute('data-x-domain') ?? '',
        top: Number(svg.getAttribute('data-y-top')),
        unit: svg.querySelector('text.x-unit')?.textContent ?? '',
        ticks: Array.from(svg.querySelectorAll('text.x-tick')).map((text) => {
          const rect = box(text);
          return { label: text.textContent ?? '', x: Math.round(rect.x + rect.width / 2) };
        }),
        plotLeft: plot.x,
        plotTop: plot.y,
        plotWidth: plot.width,
        limit:
          limit === null || limitLine === null
            ? null
            : { value: Number(limit.getAttribute('data-limit')), y: limitLine.y + limitLine.height / 2 },
        markers: Array.from(svg.querySelectorAll('g.marker')).map((marker) => {
          const line = box(marker.querySelector('line')!);
          return {
            kind: marker.getAttribute('data-marker') ?? '',
            rule: marker.getAttribute('data-rule'),
            at: Number(marker.getAttribute('data-at')),
            x: line.x + line.width / 2,
          };
        }),
      };
    }),
  );
}

/** Red (the limit line, #dc2626) and green (the used line, #059669) pixels in a screenshot of one element. */
export async function pixelsOf(tab: Page, selector: string): Promise<{ red: number; green: number }> {
  const png = (await tab.locator(selector).first().screenshot()).toString('base64');
  return tab.evaluate(async (data: string) => {
    const image = new Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const pixels = context.getImageData(0, 0, image.width, image.height).data;
    let red = 0;
    let green = 0;
    for (let i = 0; i < pixels.length; i += 4) {
      const [r, g, b] = [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!];
      if (r > 180 && g < 100 && b < 100) red++;
      if (g > 110 && r < 80 && b > 60 && b < 150) green++;
    }
    return { red, green };
  }, png);
}

/** The HTML report: one self-contained page (no network, no script) with SVG charts over time. */
import type { SimulationReport } from './simulate.js';

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const WIDTH = 720;
const HEIGHT = 160;

const MAX_POINTS = 720;

/** At most MAX_POINTS points: each the largest of the minutes it stands for (peaks stay visible). */
function downsample(values: readonly (number | null)[]): (number | null)[] {
  if (values.length <= MAX_POINTS) return [...values];
  const per = Math.ceil(values.length / MAX_POINTS);
  const out: (number | null)[] = [];
  for (let i = 0; i < values.length; i += per) {
    let peak: number | null = null;
    for (let j = i; j < Math.min(values.length, i + per); j++) {
      const value = values[j];
      if (value !== null && value !== undefined && (peak === null || value > peak)) peak = value;
    }
    out.push(peak);
  }
  return out;
}

/** An SVG line chart of one or more series per minute, with its axes labelled. */
function chart(
  title: string,
  series: readonly { name: string; colour: string; values: readonly (number | null)[] }[],
): string {
  series = series.map((s) => ({ ...s, values: downsample(s.values) }));
  let length = 1;
  let top = 1;
  // Loops, not Math.max(...values): a year of minutes would overflow the call stack.
  for (const each of series) {
    length = Math.max(length, each.values.length);
    for (const value of each.values) if (value !== null && value > top) top = value;
  }
  const x = (i: number) => 40 + (i * (WIDTH - 60)) / Math.max(1, length - 1);
  const y = (v: number) => HEIGHT - 20 - (v * (HEIGHT - 40)) / top;
  const lines = series.map((s) => {
    const points = s.values
      .map((v, i) => (v === null ? null : `${x(i).toFixed(1)},${y(v).toFixed(1)}`))
      .filter((p) => p !== null)
      .join(' ');
    return `<polyline fill="none" stroke="${s.colour}" stroke-width="1.5" points="${points}"><title>${escapeHtml(s.name)}</title></polyline>`;
  });
  const legend = series
    .map(
      (s, i) =>
        `<text x="${50 + i * 150}" y="14" fill="${s.colour}" font-size="12">${escapeHtml(s.name)}</text>`,
    )
    .join('');
  return `<figure><figcaption>${escapeHtml(title)}</figcaption><svg role="img" aria-label="${escapeHtml(title)}" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" xmlns="http://www.w3.org/2000/svg">
<line x1="40" y1="${HEIGHT - 20}" x2="${WIDTH - 20}" y2="${HEIGHT - 20}" stroke="#888"/><line x1="40" y1="20" x2="40" y2="${HEIGHT - 20}" stroke="#888"/>
<text x="4" y="24" font-size="11">${top.toLocaleString('en-US')}</text><text x="4" y="${HEIGHT - 22}" font-size="11">0</text>
<text x="${WIDTH - 80}" y="${HEIGHT - 4}" font-size="11">minute ${length - 1}</text>${legend}${lines.join('')}</svg></figure>`;
}

/**
 * The page: per caller, its numbers and three charts per minute (primary remaining; admitted and
 * denied; requests in flight). Inline SVG only: it opens anywhere, offline.
 * @example
 * import { htmlReport } from './report-html.js';
 * // htmlReport(report).startsWith('<!doctype html>') -> true
 */
export function htmlReport(report: SimulationReport, title: string): string {
  const sections = report.callers.map((caller) => {
    const denied = Object.entries(caller.denied).map(
      ([rule, n]) => `<li>${escapeHtml(rule)}: ${(n ?? 0).toLocaleString('en-US')}</li>`,
    );
    return `<section><h2>${escapeHtml(caller.name)} <small>${escapeHtml(caller.kind)}, ${escapeHtml(caller.behaviour)}</small></h2>
<p>sent ${caller.sent.toLocaleString('en-US')}, admitted ${caller.admitted.toLocaleString('en-US')}, sent while limited ${caller.sentWhileLimited.toLocaleString('en-US')}, limited for ${Math.round(caller.limitedSeconds).toLocaleString('en-US')} s${caller.workDoneAt === null ? '' : `, work done at ${caller.workDoneAt.toLocaleString('en-US')} s`}</p>
${denied.length === 0 ? '<p>never limited</p>' : `<ul>${denied.join('')}</ul>`}
${chart('primary requests remaining, per minute', [{ name: 'remaining', colour: '#2a6', values: caller.series.gauges.find((g) => g.rule === 'primary')?.remaining ?? [] }])}
${chart('admitted and denied per minute', [
  { name: 'admitted', colour: '#26a', values: caller.series.admitted },
  { name: 'denied', colour: '#c33', values: caller.series.denied },
])}
${chart('requests in flight (most per minute)', [{ name: 'in flight', colour: '#a62', values: caller.series.inFlight }])}
</section>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:780px}figure{margin:1em 0}figcaption{font-weight:600}small{color:#666;font-weight:normal}</style>
</head><body><h1>${escapeHtml(title)}</h1>
<p>${report.seconds.toLocaleString('en-US')} virtual seconds, seed ${report.seed}, ${report.requests.toLocaleString('en-US')} requests simulated.</p>
${sections.join('\n')}
</body></html>
`;
}

/** One SVG chart of the HTML report: bucket values as steps over a caller's time axis, a limit line, markers. */
import type { LimitRule } from '../limits/limits-config.js';
import { escapeHtml, number } from './report-format.js';
import { type TimeAxis, tickLabel } from './report-html-axis.js';

/** One line of a chart: a value per bucket, null where nothing is known. */
export interface ChartLine {
  readonly name: string;
  readonly colour: string;
  readonly values: readonly (number | null)[];
}

/** A moment on the time axis: a first refusal (overall or of one rule) or the work done. */
export interface ChartMarker {
  readonly kind: 'first-refusal' | 'work-done';
  /** The rule of a rule's first refusal; absent for the caller's first refusal of any rule. */
  readonly rule?: LimitRule;
  /** Virtual seconds from the start. */
  readonly at: number;
  readonly label: string;
}

/** What one chart draws: its kind (and rule), the caller's axis, its lines, y-axis top, limit line and markers. */
export interface ChartSpec {
  readonly title: string;
  /** What the chart shows: a rule's gauge, or the caller's traffic. */
  readonly kind: 'gauge' | 'traffic';
  readonly rule?: LimitRule;
  /** A primary gauge's resource (`core`, `search`, `graphql`, `lfs`). */
  readonly resource?: string;
  readonly axis: TimeAxis;
  readonly bucketSeconds: number;
  readonly lines: readonly ChartLine[];
  /** The y-axis top: the rule's limit for a gauge. */
  readonly top: number;
  readonly limit?: { readonly value: number; readonly label: string };
  readonly markers: readonly ChartMarker[];
}

/** Every chart's width in pixels: one axis length for all, so a caller's charts line up. */
export const CHART_WIDTH = 760;
const HEIGHT = 190;
const LEFT = 64;
const RIGHT = 16;
// Above the plot: the legend and the limit's label (row at 14), then two rows of marker labels.
const TOP = 46;
const MARKER_ROWS = [42, 29];
/** About the width of one character of an 11-pixel label, to keep two labels apart. */
const CHAR_WIDTH = 6.2;
const BOTTOM = 36;
const PLOT_WIDTH = CHART_WIDTH - LEFT - RIGHT;
const PLOT_HEIGHT = HEIGHT - TOP - BOTTOM;

/** The report's colours: the limit line and first refusals in red, work done in violet. */
export const COLOURS = {
  admitted: '#2563eb',
  denied: '#ea580c',
  used: '#059669',
  limit: '#dc2626',
  firstRefusal: '#dc2626',
  workDone: '#7c3aed',
} as const;

const fixed = (value: number) => value.toFixed(1);

/**
 * Each bucket drawn as a step over its whole width (a wait at 0 stays flat at 0, never a ramp),
 * cut at the axis end; a null bucket breaks the line.
 */
function stepPath(
  values: readonly (number | null)[],
  spec: ChartSpec,
  x: (s: number) => number,
  y: (v: number) => number,
): string {
  const parts: string[] = [];
  let drawing = false;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    const from = i * spec.bucketSeconds;
    if (from >= spec.axis.end) break;
    if (value === null || value === undefined) {
      drawing = false;
      continue;
    }
    const to = Math.min(spec.axis.end, from + spec.bucketSeconds);
    const level = fixed(y(Math.min(value, spec.top)));
    parts.push(drawing ? `V${level}H${fixed(x(to))}` : `M${fixed(x(from))} ${level}H${fixed(x(to))}`);
    drawing = true;
  }
  return parts.join('');
}

interface PlacedLabel {
  readonly x: number;
  readonly y: number;
  readonly anchor: 'start' | 'end';
}

/**
 * Each marker's label above the plot (never over the data): right of its line, or left of it
 * when it would pass the plot's right edge, on the lower row unless that row is taken there.
 */
function placeLabels(markers: readonly ChartMarker[], x: (s: number) => number): PlacedLabel[] {
  const taken: [number, number, number][] = [];
  return markers.map((marker) => {
    const at = x(marker.at);
    const width = marker.label.length * CHAR_WIDTH;
    const right = at + 4 + width <= LEFT + PLOT_WIDTH;
    const from = right ? at + 4 : at - 4 - width;
    const to = from + width;
    const row =
      MARKER_ROWS.find((y) => !taken.some(([ty, a, b]) => ty === y && from < b + 6 && a < to + 6)) ??
      MARKER_ROWS[0]!;
    taken.push([row, from, to]);
    return { x: right ? at + 4 : at - 4, y: row, anchor: right ? 'start' : 'end' };
  });
}

const markerColour = (marker: ChartMarker) =>
  marker.kind === 'work-done' ? COLOURS.workDone : COLOURS.firstRefusal;

function markerLine(marker: ChartMarker, label: PlacedLabel, x: (s: number) => number): string {
  const at = fixed(x(marker.at));
  return `<g class="marker" data-marker="${marker.kind}"${marker.rule === undefined ? '' : ` data-rule="${marker.rule}"`} data-at="${marker.at}"><line x1="${at}" y1="${label.y + 3}" x2="${at}" y2="${TOP + PLOT_HEIGHT}" stroke="${markerColour(marker)}" stroke-width="1.5" stroke-dasharray="2 3"/></g>`;
}

/** A label with a white halo, drawn after every marker line so no line crosses its text. */
function markerLabel(marker: ChartMarker, label: PlacedLabel): string {
  return `<text x="${fixed(label.x)}" y="${label.y}" font-size="11" fill="${markerColour(marker)}" stroke="#fff" stroke-width="3" paint-order="stroke" text-anchor="${label.anchor}">${escapeHtml(marker.label)}</text>`;
}

/**
 * The chart as inline SVG. Its data attributes carry what a test reads: `data-x-domain` (virtual
 * seconds), `data-y-top`, and the limit line's `data-limit`.
 * @example
 * import { chartSvg } from './report-html-chart.js';
 * import { timeAxis } from './report-html-axis.js';
 * chartSvg({ title: 'points', kind: 'gauge', rule: 'rest_points', axis: timeAxis(120), bucketSeconds: 60, lines: [{ name: 'used', colour: '#059669', values: [900, 450] }], top: 900, limit: { value: 900, label: 'limit 900' }, markers: [] }).startsWith('<svg'); // true
 */
export function chartSvg(spec: ChartSpec): string {
  const x = (seconds: number) => LEFT + (Math.min(seconds, spec.axis.end) / spec.axis.end) * PLOT_WIDTH;
  const top = spec.top > 0 ? spec.top : 1;
  const y = (value: number) => TOP + PLOT_HEIGHT - (value / top) * PLOT_HEIGHT;
  const bottom = TOP + PLOT_HEIGHT;
  const xTicks = spec.axis.ticks
    .map(
      (tick) =>
        `<line x1="${fixed(x(tick))}" y1="${bottom}" x2="${fixed(x(tick))}" y2="${bottom + 4}" stroke="#888"/><text class="x-tick" x="${fixed(x(tick))}" y="${bottom + 15}" font-size="11" text-anchor="middle">${tickLabel(spec.axis, tick)}</text>`,
    )
    .join('');
  const yTicks = [0, top / 2, top]
    .map(
      (value) =>
        `<line x1="${LEFT - 4}" y1="${fixed(y(value))}" x2="${LEFT}" y2="${fixed(y(value))}" stroke="#888"/><text class="y-tick" x="${LEFT - 6}" y="${fixed(y(value) + 4)}" font-size="11" text-anchor="end">${number(value)}</text>`,
    )
    .join('');
  const limit =
    spec.limit === undefined
      ? ''
      : `<g class="limit" data-limit="${spec.limit.value}"><line x1="${LEFT}" y1="${fixed(y(spec.limit.value))}" x2="${LEFT + PLOT_WIDTH}" y2="${fixed(y(spec.limit.value))}" stroke="${COLOURS.limit}" stroke-width="1.5" stroke-dasharray="6 4"/><line x1="${fixed(LEFT + PLOT_WIDTH - spec.limit.label.length * CHAR_WIDTH - 28)}" y1="10" x2="${fixed(LEFT + PLOT_WIDTH - spec.limit.label.length * CHAR_WIDTH - 6)}" y2="10" stroke="${COLOURS.limit}" stroke-width="1.5" stroke-dasharray="6 4"/><text x="${LEFT + PLOT_WIDTH}" y="14" font-size="11" fill="${COLOURS.limit}" text-anchor="end">${escapeHtml(spec.limit.label)}</text></g>`;
  const lines = spec.lines
    .map((line) => ({ line, d: stepPath(line.values, { ...spec, top }, x, y) }))
    // A line with no known bucket draws nothing (an empty `d` is not a path).
    .filter(({ d }) => d !== '')
    .map(
      ({ line, d }) =>
        `<path class="series" data-series="${escapeHtml(line.name)}" fill="none" stroke="${line.colour}" stroke-width="1.5" d="${d}"><title>${escapeHtml(line.name)}</title></path>`,
    )
    .join('');
  const legend = spec.lines
    .map(
      (line, i) =>
        `<rect x="${LEFT + i * 130}" y="6" width="10" height="10" fill="${line.colour}"/><text x="${LEFT + 14 + i * 130}" y="15" font-size="12">${escapeHtml(line.name)}</text>`,
    )
    .join('');
  const labels = placeLabels(spec.markers, x);
  const markers = [
    ...spec.markers.map((marker, i) => markerLine(marker, labels[i]!, x)),
    ...spec.markers.map((marker, i) => markerLabel(marker, labels[i]!)),
  ].join('');
  return `<svg class="chart" data-chart="${spec.kind}"${spec.rule === undefined ? '' : ` data-rule="${spec.rule}"`}${spec.resource === undefined ? '' : ` data-resource="${escapeHtml(spec.resource)}"`} data-x-domain="0 ${spec.axis.end}" data-y-top="${top}" role="img" aria-label="${escapeHtml(spec.title)}" width="${CHART_WIDTH}" height="${HEIGHT}" viewBox="0 0 ${CHART_WIDTH} ${HEIGHT}">
<rect x="${LEFT}" y="${TOP}" width="${PLOT_WIDTH}" height="${PLOT_HEIGHT}" fill="#fafafa"/>
<line x1="${LEFT}" y1="${bottom}" x2="${LEFT + PLOT_WIDTH}" y2="${bottom}" stroke="#888"/><line x1="${LEFT}" y1="${TOP}" x2="${LEFT}" y2="${bottom}" stroke="#888"/>
${xTicks}${yTicks}<text class="x-unit" x="${LEFT + PLOT_WIDTH}" y="${HEIGHT - 3}" font-size="11" fill="#555" text-anchor="end">${spec.axis.unit.name} from the start</text>
${legend}${limit}${lines}${markers}</svg>`;
}

/** A caller's series kept as the run goes: buckets of one width, widened by merging neighbours so memory stays bounded. */

import type { LimitsResource } from '../core/limit-charge.js';
import type { LimitRule } from '../limits/limits-config.js';
import type { Gauge, GaugeUnit, Series } from './report-types.js';

/** Buckets a caller keeps at most: a run of any length fits by widening them. */
export const MAX_BUCKETS = 1024;
/** The narrowest bucket: one virtual minute. */
export const BASE_BUCKET_MS = 60_000;

/** One rule's gauge as it is recorded: the least remaining per bucket. */
export interface GaugeRecorder {
  readonly rule: LimitRule;
  readonly resource?: LimitsResource;
  readonly limit: number;
  readonly unit: GaugeUnit;
  readonly windowSeconds: number;
  readonly remaining: (number | null)[];
  /** Until when (epoch ms) refusals have already marked the rule at 0. */
  zeroUntil: number;
}

/**
 * A caller's series under construction. `bucketMs` doubles whenever a time beyond MAX_BUCKETS
 * buckets is recorded (or at `finish`, to share the widest width of the run).
 */
export interface SeriesRecorder {
  bucketMs: number;
  readonly start: number;
  readonly admitted: number[];
  readonly denied: number[];
  readonly inFlight: number[];
  readonly gauges: GaugeRecorder[];
}

/**
 * The first width for a run of `durationMs` (Infinity when unknown): 60 s doubled until the run
 * fits in MAX_BUCKETS buckets, so a run of known length never merges.
 * @example
 * import { initialBucketMs } from './series-recorder.js';
 * initialBucketMs(3_600_000); // 60000
 * initialBucketMs(365 * 86_400_000); // 61440000
 */
export function initialBucketMs(durationMs: number): number {
  let width = BASE_BUCKET_MS;
  while (Number.isFinite(durationMs) && durationMs > width * MAX_BUCKETS) width *= 2;
  return width;
}

/**
 * An empty recorder.
 * @example
 * import { createSeriesRecorder } from './series-recorder.js';
 * createSeriesRecorder(0, 60_000).admitted; // []
 */
export function createSeriesRecorder(start: number, bucketMs: number): SeriesRecorder {
  return { bucketMs, start, admitted: [], denied: [], inFlight: [], gauges: [] };
}

const sum = (a: number, b: number | undefined) => a + (b ?? 0);
const most = (a: number, b: number | undefined) => Math.max(a, b ?? 0);
const least = (a: number | null, b: number | null | undefined) =>
  a === null ? (b ?? null) : b === null || b === undefined ? a : Math.min(a, b);

/** Pairs of neighbours merged into one: the array halves (rounded up). */
function mergePairs<T>(values: T[], merge: (a: T, b: T | undefined) => T): void {
  const half = Math.ceil(values.length / 2);
  for (let i = 0; i < half; i++) values[i] = merge(values[2 * i]!, values[2 * i + 1]);
  values.length = half;
}

/**
 * Doubles the bucket width until it reaches `bucketMs`: counts add up, in-flight peaks and least
 * remaining keep their extreme.
 * @example
 * import { createSeriesRecorder, widenTo } from './series-recorder.js';
 * const series = createSeriesRecorder(0, 60_000);
 * series.admitted.push(1, 2, 3);
 * widenTo(series, 120_000);
 * series.admitted; // [3, 3]
 */
export function widenTo(series: SeriesRecorder, bucketMs: number): void {
  while (series.bucketMs < bucketMs) {
    series.bucketMs *= 2;
    mergePairs(series.admitted, sum);
    mergePairs(series.denied, sum);
    mergePairs(series.inFlight, most);
    for (const gauge of series.gauges) mergePairs(gauge.remaining, least);
  }
}

/**
 * The bucket of time `at`, widening the series first when it would pass MAX_BUCKETS.
 * @example
 * import { bucketOf, createSeriesRecorder } from './series-recorder.js';
 * bucketOf(createSeriesRecorder(0, 60_000), 125_000); // 2
 */
export function bucketOf(series: SeriesRecorder, at: number): number {
  let index = Math.floor((at - series.start) / series.bucketMs);
  if (index >= MAX_BUCKETS) {
    let width = series.bucketMs;
    while (Math.floor((at - series.start) / width) >= MAX_BUCKETS) width *= 2;
    widenTo(series, width);
    index = Math.floor((at - series.start) / series.bucketMs);
  }
  return index;
}

/**
 * Adds `by` to a count series at bucket `index`.
 * @example
 * import { addAt } from './series-recorder.js';
 * const counts: number[] = [];
 * addAt(counts, 2, 1);
 * counts; // [0, 0, 1]
 */
export function addAt(values: number[], index: number, by: number): void {
  while (values.length <= index) values.push(0);
  values[index]! += by;
}

/**
 * Keeps the largest of a peak series at bucket `index`.
 * @example
 * import { peakAt } from './series-recorder.js';
 * const peaks = [3];
 * peakAt(peaks, 0, 2);
 * peaks; // [3]
 */
export function peakAt(values: number[], index: number, value: number): void {
  while (values.length <= index) values.push(0);
  if (value > values[index]!) values[index] = value;
}

/**
 * Keeps the least remaining of a gauge at bucket `index`.
 * @example
 * import { leastAt } from './series-recorder.js';
 * const remaining: (number | null)[] = [];
 * leastAt(remaining, 1, 40);
 * remaining; // [null, 40]
 */
export function leastAt(values: (number | null)[], index: number, value: number): void {
  while (values.length <= index) values.push(null);
  const held = values[index]!;
  if (held === null || value < held) values[index] = value;
}

/**
 * The finished series, every array padded to `buckets` (the run's length in buckets).
 * @example
 * import { createSeriesRecorder, finishSeries } from './series-recorder.js';
 * finishSeries(createSeriesRecorder(0, 60_000), 60_000, 2).admitted; // [0, 0]
 */
export function finishSeries(series: SeriesRecorder, bucketMs: number, buckets: number): Series {
  widenTo(series, bucketMs);
  const pad = <T>(values: T[], fill: T) => {
    while (values.length < buckets) values.push(fill);
    if (values.length > buckets) values.length = buckets;
    return values;
  };
  const gauges: Gauge[] = series.gauges.map((gauge) => ({
    rule: gauge.rule,
    ...(gauge.resource === undefined ? {} : { resource: gauge.resource }),
    limit: gauge.limit,
    unit: gauge.unit,
    windowSeconds: gauge.windowSeconds,
    remaining: pad(gauge.remaining, null),
  }));
  return {
    bucketSeconds: series.bucketMs / 1000,
    admitted: pad(series.admitted, 0),
    denied: pad(series.denied, 0),
    inFlight: pad(series.inFlight, 0),
    gauges,
  };
}

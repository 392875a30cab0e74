/** How the text and HTML reports name each rule and its window. */
import type { LimitRule } from '../limits/limits-config.js';
import type { Gauge } from './report-types.js';

/** Each rule in words, as the seed names it (seed 000, "Primary rate limit", "Secondary rate limits"). */
export const RULE_NAMES: Readonly<Record<LimitRule, string>> = {
  primary: 'primary',
  concurrency: 'concurrency',
  rest_points: 'REST points',
  graphql_points: 'GraphQL points',
  cpu: 'CPU time',
  graphql_cpu: 'GraphQL CPU time',
  content_per_minute: 'content per minute',
  content_per_hour: 'content per hour',
};

const UNIT_NAMES: Readonly<Record<Gauge['unit'], string>> = {
  requests: 'requests',
  points: 'points',
  'cpu-seconds': 'CPU seconds',
  'in-flight': 'requests in flight',
};

/**
 * A gauge's rule in words, its resource beside a primary gauge: `primary (search)`.
 * @example
 * import { gaugeName } from './report-rule-names.js';
 * gaugeName({ rule: 'primary', resource: 'search' }); // 'primary (search)'
 */
export function gaugeName(gauge: { readonly rule: LimitRule; readonly resource?: string }): string {
  return gauge.resource === undefined
    ? RULE_NAMES[gauge.rule]
    : `${RULE_NAMES[gauge.rule]} (${gauge.resource})`;
}

/**
 * A window's length in words: `per minute`, `per hour`, `per 90 s`, nothing for concurrency.
 * @example
 * import { perWindow } from './report-rule-names.js';
 * perWindow(3600); // 'per hour'
 */
export function perWindow(seconds: number): string {
  if (seconds <= 0) return '';
  if (seconds === 60) return 'per minute';
  if (seconds === 3600) return 'per hour';
  if (seconds === 86_400) return 'per day';
  return `per ${seconds.toLocaleString('en-US')} s`;
}

const CONTENT: ReadonlySet<LimitRule> = new Set(['content_per_minute', 'content_per_hour']);
const CPU: ReadonlySet<LimitRule> = new Set(['cpu', 'graphql_cpu']);

/**
 * A gauge's limit in words: `5,000 requests per hour`, `100 requests in flight`, `80
 * content-creating requests per minute`, `90 CPU seconds per 60 s` (as seed 000 words it).
 * @example
 * import { gaugeLimit } from './report-rule-names.js';
 * gaugeLimit({ rule: 'rest_points', limit: 900, unit: 'points', windowSeconds: 60, remaining: [] }); // '900 points per minute'
 */
export function gaugeLimit(gauge: Gauge): string {
  const window = CPU.has(gauge.rule) ? `per ${gauge.windowSeconds} s` : perWindow(gauge.windowSeconds);
  const unit = CONTENT.has(gauge.rule) ? 'content-creating requests' : UNIT_NAMES[gauge.unit];
  return `${gauge.limit.toLocaleString('en-US')} ${unit}${window === '' ? '' : ` ${window}`}`;
}

/** How the text and HTML reports name each rule and its window. */
import type { LimitRule } from '../limits/index.js';
import type { Gauge } from './report-types.js';

/** Each rule in words, as the seed names it (seed 000, "Primary rate limit", "Secondary rate limits"). */
export const RULE_NAMES: Readonly<Record<LimitRule, string>> = {
  primary: 'primary',
  concurrency: 'concurrent requests',
  rest_points: 'REST points per minute',
  graphql_points: 'GraphQL points per minute',
  cpu: 'CPU time per 60 s',
  graphql_cpu: 'GraphQL CPU time per 60 s',
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
 * A window's length in words: `per minute`, `per hour`, `per 60 s`, nothing for concurrency.
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

/**
 * A gauge's limit in words: `5,000 requests per hour`, `100 requests in flight`.
 * @example
 * import { gaugeLimit } from './report-rule-names.js';
 * gaugeLimit({ rule: 'rest_points', limit: 900, unit: 'points', windowSeconds: 60, remaining: [] }); // '900 points per minute'
 */
export function gaugeLimit(gauge: Gauge): string {
  const window = perWindow(gauge.windowSeconds);
  return `${gauge.limit.toLocaleString('en-US')} ${UNIT_NAMES[gauge.unit]}${window === '' ? '' : ` ${window}`}`;
}

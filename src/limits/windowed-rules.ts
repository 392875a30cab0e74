/** The rules a window mode applies to: the seed's "at most N per minute or hour" counts. */

/**
 * The windowed rules, in a fixed order.
 * @example
 * import { WINDOWED_RULES } from './windowed-rules.js';
 * WINDOWED_RULES.length; // 4
 */
export const WINDOWED_RULES = [
  'rest_points',
  'graphql_points',
  'content_per_minute',
  'content_per_hour',
] as const;

/** One of WINDOWED_RULES. */
export type WindowedRule = (typeof WINDOWED_RULES)[number];

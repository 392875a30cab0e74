/** A partial limits config laid over the shipped one, so `{ answers: { status: 429 } }` is a whole config. */
import type { LimitsConfig } from '../limits/limits-config.js';

/**
 * A config with every field of `LimitsConfig` optional, at any depth.
 * @example
 * import type { PartialLimitsConfig } from './merge-limits.js';
 * const config: PartialLimitsConfig = { answers: { status: 429 } };
 */
export type PartialLimitsConfig = { readonly [K in keyof LimitsConfig]?: DeepPartial<LimitsConfig[K]> };
type DeepPartial<T> = T extends object ? { readonly [K in keyof T]?: DeepPartial<T[K]> } : T;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function merge(base: unknown, over: unknown): unknown {
  if (!isObject(base) || !isObject(over)) return over === undefined ? base : over;
  const merged: Record<string, unknown> = { ...base };
  for (const key of Object.keys(over)) merged[key] = merge(base[key], over[key]);
  return merged;
}

/**
 * `over` merged into `base` field by field (objects merged, other values replaced). Checked
 * beforehand by `LIMITS_CONFIG_RULE`, so the result has every field. Worked example:
 * `{ answers: { status: 429 } }` over the shipped config keeps every other field, status 429.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { mergeLimits } from './merge-limits.js';
 * mergeLimits(defaultLimits(), { answers: { status: 429 } }).answers.status; // 429
 */
export function mergeLimits(base: LimitsConfig, over: PartialLimitsConfig | undefined): LimitsConfig {
  // The shipped object itself when nothing is laid over it: one script per config in Redis.
  return over === undefined || over === base ? base : (merge(base, over) as LimitsConfig);
}

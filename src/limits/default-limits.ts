/** The shipped limits: data/limits.yaml, precompiled into src/generated at build time. */
import limitsTable from '../generated/limits.json' with { type: 'json' };
import { compileLimits } from './compile-limits.js';
import type { LimitsConfig } from './limits-config.js';

let cached: LimitsConfig | undefined;

/**
 * The default LimitsConfig: every number of seed 000's limit tables, plus tollgate's documented
 * choices where the seed shows none (search, GraphQL, polling). Compiled once, on first use.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * defaultLimits().secondary.concurrency.limit; // 100
 */
export function defaultLimits(): LimitsConfig {
  cached ??= compileLimits(limitsTable);
  return cached;
}

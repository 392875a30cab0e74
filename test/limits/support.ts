// Shared helpers of the limits tests: the shipped table parsed from YAML, small configs, events.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { compileLimits } from '../../src/limits/compile-limits.js';
import type { AdmitEvent } from '../../src/limits/limit-event.js';
import type { LimitsConfig } from '../../src/limits/limits-config.js';

/** data/limits.yaml, parsed. */
export const limitsYamlText = readFileSync(new URL('../../data/limits.yaml', import.meta.url), 'utf8');
export const rawLimits = parse(limitsYamlText) as Record<string, unknown>;
export const limitsSchema = JSON.parse(
  readFileSync(new URL('../../data/schema/limits.schema.json', import.meta.url), 'utf8'),
) as object;

/** The shipped config, compiled from the YAML (not from src/generated). */
export const config: LimitsConfig = compileLimits(rawLimits);

/**
 * A config with tiny numbers, so random runs reach every limit: primary 4 per 10 s (search 2,
 * lfs 3), concurrency 3 with a 30 s lease, points 12 REST / 20 GraphQL per 6 s, CPU 3 s (GraphQL
 * 2 s) per 6 s, content 3 per minute and 5 per hour.
 */
export const tinyConfig: LimitsConfig = {
  ...config,
  primary: {
    windowMs: 10_000,
    callers: {
      anonymous: { limit: 2 },
      user: { limit: 4, enterpriseCloud: 6 },
      installation: { ...config.primary.callers.installation, limit: 4, ceiling: 8, enterpriseCloud: 9 },
      clientCredentials: { limit: 4, enterpriseCloud: 6 },
      workflow: { limit: 3, enterpriseCloud: 6 },
    },
    resources: {
      search: { windowMs: 5_000, sameAsCore: false, anonymous: 1, authenticated: 2 },
      graphql: { windowMs: 10_000, sameAsCore: true },
      lfs: { windowMs: 3_000, sameAsCore: false, anonymous: 2, authenticated: 3 },
    },
  },
  secondary: {
    concurrency: { limit: 3, leaseMs: 30_000 },
    points: { windowMs: 6_000, rest: 12, graphql: 20 },
    cpu: { windowMs: 6_000, totalMs: 3_000, graphqlMs: 2_000 },
    content: { perMinute: 3, perHour: 5 },
    windowModes: config.secondary.windowModes,
  },
};

/** An admit event with defaults: a REST GET on core by `user:octocat` with 5,000 per hour. */
export function admitEvent(overrides: Partial<AdmitEvent> = {}): AdmitEvent {
  return {
    kind: 'admit',
    key: 'user:octocat',
    resource: 'core',
    limit: 5000,
    cost: 1,
    content: false,
    graphql: false,
    countsPrimary: true,
    ...overrides,
  };
}

/** A fixed start time, on a whole second. */
export const T0 = 1_700_000_000_000;

import type { WindowedRule } from './windowed-rules.js';

/** The typed rate-limit configuration: data/limits.yaml in camelCase, with times in milliseconds. */

import type { LimitsResource } from '../core/limit-charge.js';

export type { LimitCharge, LimitsResource } from '../core/limit-charge.js';

/**
 * Every resource, in the order `GET /rate_limit` lists them.
 * @example
 * import { LIMITS_RESOURCES } from './limits-config.js';
 * LIMITS_RESOURCES; // ['core', 'search', 'graphql', 'lfs']
 */
export const LIMITS_RESOURCES: readonly LimitsResource[] = ['core', 'search', 'graphql', 'lfs'];

/**
 * The rules a request can be denied by: the primary window of its resource, then the secondary
 * rules of seed 000 ("Secondary rate limits"), in the order `step` checks them.
 * @example
 * import type { Verdict } from 'tollgate';
 * import type { LimitRule } from 'tollgate/limits';
 * const CONTENT_RULES: readonly LimitRule[] = ['content_per_minute', 'content_per_hour'];
 * const tooMuchContent = (verdict: Verdict) => verdict.rule !== null && CONTENT_RULES.includes(verdict.rule);
 */
export type LimitRule =
  | 'primary'
  | 'concurrency'
  | 'rest_points'
  | 'graphql_points'
  | 'cpu'
  | 'graphql_cpu'
  | 'content_per_minute'
  | 'content_per_hour';

/**
 * Every rule, in the order `step` checks them.
 * @example
 * import { LIMIT_RULES } from './limits-config.js';
 * LIMIT_RULES[0]; // 'primary'
 */
export const LIMIT_RULES: readonly LimitRule[] = [
  'primary',
  'concurrency',
  'rest_points',
  'graphql_points',
  'cpu',
  'graphql_cpu',
  'content_per_minute',
  'content_per_hour',
];

/** How a rule counts. */
export type LimitAlgorithm = 'fixed window' | 'token bucket' | 'sliding log' | 'counter';

/**
 * How a per-minute or per-hour rule counts: `sliding` (the default: a sliding log, never more than
 * C in any window (t - W, t], exact at the boundary; see sliding-log.ts) or `bucket` (a token
 * bucket: burst C, C per window sustained, so up to 2C within one window: beyond the seed's "at
 * most"). `strict`, the 0.1 name, is read as `sliding`.
 */
export type WindowMode = 'sliding' | 'bucket';

/**
 * The algorithm a rule runs with under `config`: its window mode for the windowed rules.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { algorithmOf } from './limits-config.js';
 * algorithmOf('rest_points', defaultLimits()); // 'sliding log'
 */
export function algorithmOf(rule: LimitRule, config: LimitsConfig): LimitAlgorithm {
  const mode = (config.secondary.windowModes as Partial<Record<LimitRule, WindowMode>>)[rule];
  return mode === 'bucket' ? 'token bucket' : RULE_ALGORITHMS[rule];
}

/**
 * The algorithm of each rule in the default configuration (docs/limits.md states each one's
 * guarantee): primary windows are fixed windows ending at `x-ratelimit-reset`; the per-minute and
 * per-hour secondary rules and CPU time are sliding logs; concurrency is a counter of requests in
 * flight.
 * @example
 * import { RULE_ALGORITHMS } from 'tollgate/limits';
 * RULE_ALGORITHMS.rest_points; // 'sliding log'
 */
export const RULE_ALGORITHMS: Readonly<Record<LimitRule, LimitAlgorithm>> = {
  primary: 'fixed window',
  concurrency: 'counter',
  rest_points: 'sliding log',
  graphql_points: 'sliding log',
  cpu: 'sliding log',
  graphql_cpu: 'sliding log',
  content_per_minute: 'sliding log',
  content_per_hour: 'sliding log',
};

/**
 * A caller class with one number, raised for enterprise-cloud callers.
 * @example
 * import { type CallerLimit, defaultLimits } from 'tollgate/limits';
 * const user: CallerLimit = defaultLimits().primary.callers.user; // { limit: 5000, enterpriseCloud: 15000 }
 */
export interface CallerLimit {
  readonly limit: number;
  readonly enterpriseCloud: number;
}

/**
 * The installation formula of seed 000 ("Scaling of installation limits").
 * @example
 * import { defaultLimits, type InstallationLimitRule } from 'tollgate/limits';
 * const rule: InstallationLimitRule = defaultLimits().primary.callers.installation; // rule.ceiling === 12500
 */
export interface InstallationLimitRule extends CallerLimit {
  readonly repositoriesIncluded: number;
  readonly perRepository: number;
  readonly usersIncluded: number;
  readonly perUser: number;
  readonly ceiling: number;
}

/**
 * A non-core resource: its own numbers, or the caller's core numbers in a separate window.
 * @example
 * import { defaultLimits, type ResourceLimit } from 'tollgate/limits';
 * const lfs: ResourceLimit = defaultLimits().primary.resources.lfs; // { windowMs: 60000, sameAsCore: false, anonymous: 300, ... }
 */
export type ResourceLimit =
  | { readonly windowMs: number; readonly sameAsCore: true }
  | {
      readonly windowMs: number;
      readonly sameAsCore: false;
      readonly anonymous: number;
      readonly authenticated: number;
      readonly batchObjects?: number;
    };

/**
 * Header names of the answers (lowercase).
 * @example
 * import { defaultLimits, type LimitsHeaderNames } from 'tollgate/limits';
 * const names: LimitsHeaderNames = defaultLimits().answers.headers; // names.reset === 'x-ratelimit-reset'
 */
export interface LimitsHeaderNames {
  readonly limit: string;
  readonly remaining: string;
  readonly used: string;
  readonly reset: string;
  readonly resource: string;
  readonly retryAfter: string;
  readonly pollInterval: string;
  readonly lastModified: string;
}

/**
 * The whole rate-limit configuration. Plain data (JSON-serializable) so a store can ship it to
 * another process; build it with `compileLimits` from the YAML table.
 * @example
 * import { createLimiter } from 'tollgate';
 * import { defaultLimits, type LimitsConfig } from 'tollgate/limits';
 * const shipped = defaultLimits();
 * const config: LimitsConfig = { ...shipped, answers: { ...shipped.answers, status: 429 } };
 * const limiter = createLimiter({ config });
 */
export interface LimitsConfig {
  /** Who counts as one anonymous caller: IPv6 addresses grouped by their first `ipv6Prefix` bits. */
  readonly identity: { readonly ipv6Prefix: number };
  readonly primary: {
    readonly windowMs: number;
    readonly callers: {
      readonly anonymous: { readonly limit: number };
      readonly user: CallerLimit;
      readonly installation: InstallationLimitRule;
      readonly clientCredentials: CallerLimit;
      readonly workflow: CallerLimit;
    };
    readonly resources: {
      readonly search: ResourceLimit;
      readonly graphql: ResourceLimit;
      readonly lfs: ResourceLimit;
    };
  };
  readonly secondary: {
    readonly concurrency: { readonly limit: number; readonly leaseMs: number };
    readonly points: { readonly windowMs: number; readonly rest: number; readonly graphql: number };
    readonly cpu: { readonly windowMs: number; readonly totalMs: number; readonly graphqlMs: number };
    readonly content: { readonly perMinute: number; readonly perHour: number };
    /** The window mode of each per-minute or per-hour rule (default `sliding`). */
    readonly windowModes: Readonly<Record<WindowedRule, WindowMode>>;
  };
  readonly costs: {
    readonly graphql: { readonly query: number; readonly mutation: number };
    readonly rest: { readonly read: number; readonly write: number };
  };
  readonly answers: {
    readonly status: 403 | 429;
    readonly contentType: string;
    readonly documentationUrl: string;
    readonly headers: LimitsHeaderNames;
    readonly messages: Readonly<Record<LimitRule, string>>;
  };
  readonly polling: { readonly intervalSeconds: number; readonly maxIntervalSeconds: number };
  readonly client: {
    readonly minWaitSeconds: number;
    readonly backoffFactor: number;
    readonly maxRetries: number;
  };
}

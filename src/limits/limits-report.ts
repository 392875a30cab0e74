/** The limits that apply to one caller, rule by rule: what `tollgate limits` prints. */
import type { TokenKind } from '../core/token.js';
import { defaultLimits } from './default-limits.js';
import { callerClassOf } from './identity.js';
import {
  algorithmOf,
  type LimitAlgorithm,
  type LimitRule,
  type LimitsConfig,
  type LimitsResource,
} from './limits-config.js';
import { primaryLimits } from './primary-limit.js';

/** One rule's limit for a caller, as `tollgate limits` prints it (JSON keys are stable). */
export interface LimitLine {
  readonly rule: LimitRule;
  readonly resource?: LimitsResource;
  readonly limit: number;
  readonly unit: string;
  readonly window_seconds: number;
  readonly algorithm: LimitAlgorithm;
  readonly note: string;
}

/**
 * How each caller class is counted, in words (seed 000, "Primary rate limits").
 * @example
 * import { COUNTED_PER, callerClassOf } from 'tollgate/limits';
 * COUNTED_PER[callerClassOf('app-installation')]; // 'per installation'
 */
export const COUNTED_PER: Record<ReturnType<typeof callerClassOf>, string> = {
  anonymous: 'per originating IP address',
  user: "per user, shared by all of the user's tokens",
  installation: 'per installation',
  'client-credentials': 'per OAuth app',
  workflow: 'per repository',
};

/**
 * Every limit that applies to a caller of token kind `kind`: the primary limit per resource, then
 * each secondary rule, each with its window, algorithm and a note on where its number comes from.
 * @example
 * import { limitsReport } from 'tollgate/limits';
 * limitsReport('app-installation', { enterpriseCloud: false, repositoriesCount: 50, usersCount: 30 })[0]?.limit; // 7000
 */
export function limitsReport(
  kind: TokenKind,
  facts: { enterpriseCloud: boolean; repositoriesCount?: number; usersCount?: number },
  config: LimitsConfig = defaultLimits(),
): LimitLine[] {
  // The kind says whether a user acts through an app (seed 000: only then 15,000 on enterprise cloud).
  const limits = primaryLimits({ caller: callerClassOf(kind), kind, ...facts }, config);
  const { resources } = config.primary;
  const sec = config.secondary;
  const windowOf = (r: LimitsResource) =>
    (r === 'core' ? config.primary.windowMs : resources[r].windowMs) / 1000;
  const primaryNote: Record<LimitsResource, string> = {
    core: 'resets at x-ratelimit-reset, one window after its first request',
    search: "tollgate's default; the seed does not show it",
    graphql: resources.graphql.sameAsCore
      ? "tollgate's default: the core number; the seed does not show it"
      : "tollgate's default; the seed does not show it",
    lfs: 'separate bucket for large-file storage',
  };
  const primary = (['core', 'search', 'graphql', 'lfs'] as const).map<LimitLine>((resource) => ({
    rule: 'primary',
    resource,
    limit: limits[resource],
    unit: 'requests',
    window_seconds: windowOf(resource),
    algorithm: algorithmOf('primary', config),
    note: primaryNote[resource],
  }));
  const bucket = (
    rule: LimitRule,
    limit: number,
    unit: string,
    windowMs: number,
    note: string,
  ): LimitLine => ({
    rule,
    limit,
    unit,
    window_seconds: windowMs / 1000,
    algorithm: algorithmOf(rule, config),
    note,
  });
  return [
    ...primary,
    {
      rule: 'concurrency',
      limit: sec.concurrency.limit,
      unit: 'requests in flight',
      window_seconds: 0,
      algorithm: algorithmOf('concurrency', config),
      note: 'REST and GraphQL together',
    },
    bucket(
      'rest_points',
      sec.points.rest,
      'points',
      sec.points.windowMs,
      `${config.costs.rest.read} per GET/HEAD/OPTIONS, ${config.costs.rest.write} otherwise`,
    ),
    bucket(
      'graphql_points',
      sec.points.graphql,
      'points',
      sec.points.windowMs,
      `${config.costs.graphql.query} per query, ${config.costs.graphql.mutation} per mutation`,
    ),
    bucket('cpu', sec.cpu.totalMs / 1000, 'CPU seconds', sec.cpu.windowMs, 'charged after the response'),
    bucket(
      'graphql_cpu',
      sec.cpu.graphqlMs / 1000,
      'CPU seconds',
      sec.cpu.windowMs,
      'GraphQL share of the CPU rule',
    ),
    bucket('content_per_minute', sec.content.perMinute, 'content-generating requests', 60_000, ''),
    bucket('content_per_hour', sec.content.perHour, 'content-generating requests', 3_600_000, ''),
  ];
}

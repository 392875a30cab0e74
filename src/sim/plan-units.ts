/**
 * The arithmetic the planner starts from: the ceilings an identity has (seed 000, "Primary rate
 * limits" and "Secondary rate limits") and what one request of a caller's mix uses of each.
 */

import type { LimitsResource } from '../core/limit-charge.js';
import { identityOf } from '../limits/identity.js';
import { LIMITS_RESOURCES, type LimitRule, type LimitsConfig } from '../limits/limits-config.js';
import { pointCost } from '../limits/point-cost.js';
import { resourceWindowMs } from '../limits/primary-limit.js';
import { createPolicy, type Policy } from '../policy/authorize.js';
import type { PolicyTables } from '../policy/tables.js';
import { callerRequests } from './caller-requests.js';
import type { Distribution } from './random.js';
import type { CallerSpec } from './scenario.js';
import type { SimRequest } from './sim-request.js';

/** One ceiling of an identity: at most `limit` units in a window of `windowSeconds`. */
export interface Ceiling {
  readonly rule: LimitRule;
  readonly resource?: LimitsResource;
  readonly limit: number;
  readonly windowSeconds: number;
  readonly unit: string;
}

/** What a caller's requests use of each ceiling, in the order of `ceilingsOf`. */
export interface CallerUse {
  /** Expected units per request. */
  readonly mean: readonly number[];
  /** The most one request can use (for "the whole work fits under the ceiling"). */
  readonly most: readonly number[];
  /**
   * The variance of one request's units: the mix is drawn at random (and CPU from its
   * distribution), so a window holds more than the mean now and then.
   */
  readonly variance: readonly number[];
  /** Mean answer time, seconds. */
  readonly latency: number;
  /**
   * The answer time a paced worker must allow between two starts so that it keeps its pace:
   * the time itself, the top of a uniform draw, three means of an exponential one (a worker late
   * by a long answer then loses under 2% of its rate). Seconds.
   */
  readonly paceLatency: number;
  /** The most requests a second one worker may send: a poller waits `X-Poll-Interval` between polls. */
  readonly maxRate: number;
}

/**
 * The ceilings of the identity `caller` is counted against: the primary window of each resource,
 * then points, CPU and content, as the limits config states them.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { ceilingsOf } from './plan-units.js';
 * ceilingsOf({ kind: 'classic', user: 'a' }, defaultLimits()).map((c) => `${c.rule} ${c.limit}/${c.windowSeconds}`);
 * // ['primary 5000/3600', 'primary 30/60', 'primary 5000/3600', 'primary 3000/60', 'rest_points 900/60', ...]
 */
export function ceilingsOf(caller: CallerSpec['token'], config: LimitsConfig): Ceiling[] {
  const { limits } = identityOf(caller, config);
  const sec = config.secondary;
  return [
    ...LIMITS_RESOURCES.map((resource) => ({
      rule: 'primary' as const,
      resource,
      limit: limits[resource],
      windowSeconds: resourceWindowMs(resource, config) / 1000,
      unit: 'requests',
    })),
    {
      rule: 'rest_points',
      limit: sec.points.rest,
      windowSeconds: sec.points.windowMs / 1000,
      unit: 'points',
    },
    {
      rule: 'graphql_points',
      limit: sec.points.graphql,
      windowSeconds: sec.points.windowMs / 1000,
      unit: 'points',
    },
    {
      rule: 'cpu',
      limit: sec.cpu.totalMs / 1000,
      windowSeconds: sec.cpu.windowMs / 1000,
      unit: 'CPU seconds',
    },
    {
      rule: 'graphql_cpu',
      limit: sec.cpu.graphqlMs / 1000,
      windowSeconds: sec.cpu.windowMs / 1000,
      unit: 'CPU seconds',
    },
    { rule: 'content_per_minute', limit: sec.content.perMinute, windowSeconds: 60, unit: 'content requests' },
    { rule: 'content_per_hour', limit: sec.content.perHour, windowSeconds: 3600, unit: 'content requests' },
  ];
}

/**
 * The mean of a distribution of milliseconds.
 * @example
 * import { meanMs } from './plan-units.js';
 * meanMs({ uniform: [2, 20] }); // 11
 */
export function meanMs(distribution: Distribution): number {
  if (typeof distribution === 'number') return distribution;
  if ('uniform' in distribution) return (distribution.uniform[0] + distribution.uniform[1]) / 2;
  return distribution.exponential;
}

function varianceMs(distribution: Distribution): number {
  if (typeof distribution === 'number') return 0;
  if ('uniform' in distribution) return (distribution.uniform[1] - distribution.uniform[0]) ** 2 / 12;
  return distribution.exponential ** 2;
}

function mostMs(distribution: Distribution): number {
  if (typeof distribution === 'number') return distribution;
  if ('uniform' in distribution) return Math.max(...distribution.uniform);
  // An exponential has no most; 5 means leave a draw above it once in 150.
  return 5 * distribution.exponential;
}

const policies = new WeakMap<PolicyTables, Policy>();
function policyOf(tables: PolicyTables): Policy {
  const known = policies.get(tables);
  if (known !== undefined) return known;
  const policy = createPolicy(tables);
  policies.set(tables, policy);
  return policy;
}

/** Units one request uses of `ceiling`, as the limiter charges it (the engine's compiled request). */
function unitsOf(
  request: SimRequest,
  ceiling: Ceiling,
  cpu: number,
  refundShare: number,
  config: LimitsConfig,
): number {
  const admit = request.admit;
  const graphql = admit.graphql === true;
  const cost = () =>
    admit.cost ??
    pointCost(
      {
        ...(admit.method === undefined ? {} : { method: admit.method }),
        graphql,
        mutation: admit.mutation === true,
      },
      config,
    );
  switch (ceiling.rule) {
    case 'primary':
      // seed 000: a 304 does not consume rate limit; a poller's unchanged share is refunded.
      return admit.countsPrimary !== false && (admit.resource ?? 'core') === ceiling.resource
        ? 1 - refundShare
        : 0;
    case 'rest_points':
      return graphql ? 0 : cost();
    case 'graphql_points':
      return graphql ? cost() : 0;
    case 'cpu':
      return cpu;
    case 'graphql_cpu':
      return graphql ? cpu : 0;
    case 'content_per_minute':
    case 'content_per_hour':
      return admit.content === true ? 1 : 0;
    default:
      return 0;
  }
}

/**
 * What one request of `spec`'s mix uses of each of `ceilings`, on average and at most, from the
 * requests the engine sends for it (table endpoints, GraphQL, search, LFS).
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { shippedTables } from 'tollgate';
 * import { callerUse, ceilingsOf } from './plan-units.js';
 * const spec = { name: 'b', token: { kind: 'classic' as const, user: 'b' }, behaviour: 'polite' as const, mix: [{ endpoint: 'POST /repos/{owner}/{repo}/issues', weight: 1 }] };
 * callerUse(spec, ceilingsOf(spec.token, defaultLimits()), shippedTables(), defaultLimits()).mean[4]; // 5 (points of a write)
 */
export function callerUse(
  spec: CallerSpec,
  ceilings: readonly Ceiling[],
  tables: PolicyTables,
  config: LimitsConfig,
  pollSeconds = 60,
): CallerUse {
  const { requests, cumulative } = callerRequests(spec, identityOf(spec.token, config), policyOf(tables));
  const shares = cumulative.map((c, i) => c - (i === 0 ? 0 : cumulative[i - 1]!));
  const cpu = meanMs(spec.cpuMs ?? 5) / 1000;
  const cpuMost = mostMs(spec.cpuMs ?? 5) / 1000;
  const refund = spec.poll?.unchanged ?? 0;
  const mean = ceilings.map((ceiling) =>
    requests.reduce(
      (sum, request, i) => sum + shares[i]! * unitsOf(request, ceiling, cpu, refund, config),
      0,
    ),
  );
  const cpuVariance = varianceMs(spec.cpuMs ?? 5) / 1e6;
  const variance = ceilings.map((ceiling, k) => {
    const square = requests.reduce(
      (sum, request, i) => sum + shares[i]! * unitsOf(request, ceiling, cpu, refund, config) ** 2,
      0,
    );
    const cpuShare = ceiling.rule === 'cpu' || ceiling.rule === 'graphql_cpu' ? cpuVariance : 0;
    return Math.max(0, square - mean[k]! ** 2) + cpuShare;
  });
  const most = ceilings.map((ceiling) =>
    Math.max(0, ...requests.map((request) => unitsOf(request, ceiling, cpuMost, 0, config))),
  );
  const latency = spec.latencyMs ?? 50;
  const pace =
    typeof latency === 'object' && 'exponential' in latency ? 3 * latency.exponential : mostMs(latency);
  return {
    mean,
    most,
    variance,
    latency: Math.max(1, meanMs(latency)) / 1000,
    paceLatency: Math.max(1, pace) / 1000,
    maxRate: spec.poll === undefined ? Number.POSITIVE_INFINITY : 1 / pollSeconds,
  };
}

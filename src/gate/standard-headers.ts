/** The IETF `RateLimit` and `RateLimit-Policy` header fields of a verdict, in the draft forms clients know. */
import type { LimitRule, LimitsConfig } from '../limits/limits-config.js';
import type { RuleStanding } from '../limits/nearest-rule.js';
import { resourceWindowMs } from '../limits/primary-limit.js';
import type { Verdict } from '../limits/verdict.js';

/** `false` (none), `'draft-7'` (the combined form express-rate-limit calls draft-7) or `'draft-8'` (the current draft's fields). */
export type StandardHeadersForm = false | 'draft-7' | 'draft-8';

function secondaryQuota(rule: Exclude<LimitRule, 'primary'>, config: LimitsConfig) {
  const s = config.secondary;
  const minute = s.points.windowMs / 1000;
  const cpu = s.cpu.windowMs / 1000;
  switch (rule) {
    case 'concurrency':
      return { quota: s.concurrency.limit, windowSeconds: null, unit: 'concurrent-requests' };
    case 'rest_points':
      return { quota: s.points.rest, windowSeconds: minute, unit: null };
    case 'graphql_points':
      return { quota: s.points.graphql, windowSeconds: minute, unit: null };
    case 'cpu':
      return { quota: s.cpu.totalMs, windowSeconds: cpu, unit: null };
    case 'graphql_cpu':
      return { quota: s.cpu.graphqlMs, windowSeconds: cpu, unit: null };
    case 'content_per_minute':
      return { quota: s.content.perMinute, windowSeconds: 60, unit: null };
    case 'content_per_hour':
      return { quota: s.content.perHour, windowSeconds: 3600, unit: null };
  }
}

/**
 * The rule reported: the secondary rule that refused (none left, free again after `retry-after`);
 * else `nearest`, the rule nearest exhaustion read from the identity's state (see nearestRule);
 * without it, the primary window of the request's resource as the verdict tells it.
 */
function reportedRule(
  verdict: Verdict,
  config: LimitsConfig,
  nowMs: number,
  nearest: RuleStanding | undefined,
): RuleStanding {
  if (verdict.rule !== null && verdict.rule !== 'primary') {
    const { quota, windowSeconds, unit } = secondaryQuota(verdict.rule, config);
    return {
      name: verdict.rule,
      quota,
      windowSeconds,
      unit,
      remaining: 0,
      resetSeconds: verdict.retryAfter ?? 1,
    };
  }
  if (nearest !== undefined) return nearest;
  return {
    name: verdict.resource,
    quota: verdict.limit,
    windowSeconds: Math.ceil(resourceWindowMs(verdict.resource, config) / 1000),
    unit: null,
    remaining: verdict.remaining,
    resetSeconds: Math.max(0, Math.ceil(verdict.reset - nowMs / 1000)),
  };
}

/**
 * The `ratelimit-policy` and `ratelimit` fields for `verdict`, seconds counted from `nowMs`; for an
 * admitted request or a primary refusal, of `nearest` when given (the gate passes nearestRule's).
 * `'draft-8'` names the rule as the draft's policy name (`core`, `search`, ..., or the secondary
 * rule: `rest_points`, `concurrency`, ...); its quota is in the rule's own unit (points, CPU ms,
 * requests). No partition key is sent (`pk` is optional): the caller's identity stays private.
 * @example
 * import { createLimiter } from 'tollgate';
 * import { standardHeaders } from './standard-headers.js';
 * const limiter = createLimiter({ clock: () => 1_700_000_000_000 });
 * const verdict = limiter.admit({ identity: limiter.identify({ kind: 'classic', user: 'octocat' }) });
 * standardHeaders(verdict, limiter.config, 'draft-8', 1_700_000_000_000);
 * // { 'ratelimit-policy': '"core";q=5000;w=3600', ratelimit: '"core";r=4999;t=3600' }
 */
export function standardHeaders(
  verdict: Verdict,
  config: LimitsConfig,
  form: 'draft-7' | 'draft-8',
  nowMs: number,
  nearest?: RuleStanding,
): Record<string, string> {
  const rule = reportedRule(verdict, config, nowMs, nearest);
  const window = rule.windowSeconds === null ? '' : `;w=${rule.windowSeconds}`;
  if (form === 'draft-7')
    return {
      'ratelimit-policy': `${rule.quota}${window}`,
      ratelimit: `limit=${rule.quota}, remaining=${rule.remaining}, reset=${rule.resetSeconds}`,
    };
  const unit = rule.unit === null ? '' : `;qu="${rule.unit}"`;
  return {
    'ratelimit-policy': `"${rule.name}";q=${rule.quota}${unit}${window}`,
    ratelimit: `"${rule.name}";r=${rule.remaining};t=${rule.resetSeconds}`,
  };
}

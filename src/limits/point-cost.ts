/** The secondary points a request costs when the endpoint table gives no cost of its own. */
import { TollgateError } from '../core/errors.js';
import type { LimitsConfig } from './limits-config.js';

/**
 * What decides a request's default point cost.
 * @example
 * import { defaultLimits, type PointCostFacts, pointCost } from 'tollgate/limits';
 * const facts: PointCostFacts = { graphql: true, mutation: true };
 * pointCost(facts, defaultLimits()); // 5
 */
export interface PointCostFacts {
  /** HTTP method of a REST request. */
  readonly method?: string;
  readonly graphql?: boolean;
  /** A GraphQL request with a mutation. */
  readonly mutation?: boolean;
}

function isRead(method: string): boolean {
  // Exact matches first: methods arrive uppercase from every HTTP stack; the rest is a fallback.
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return true;
  const upper = method.toUpperCase();
  return upper === 'GET' || upper === 'HEAD' || upper === 'OPTIONS';
}

/**
 * Default point cost (seed 000, "Point costs"): GraphQL 1 without mutation, 5 with one; REST
 * GET/HEAD/OPTIONS 1, other methods 5. An endpoint's own cost (data/permissions.yaml `cost`, the
 * authoritative table for REST) takes precedence: pass it to the limiter as `cost`. A `method`
 * that is not a string throws `TOLLGATE_INVALID_OPTION`.
 * @example
 * import { defaultLimits, pointCost } from 'tollgate/limits';
 * pointCost({ method: 'POST' }, defaultLimits()); // 5
 */
export function pointCost(facts: PointCostFacts, config: LimitsConfig): number {
  const costs = config.costs;
  if (facts.graphql === true) return facts.mutation === true ? costs.graphql.mutation : costs.graphql.query;
  const method = facts.method;
  if (method === undefined) return costs.rest.read;
  // Misuse, not a cost: `isRead` would throw a TypeError on a number.
  if (typeof method !== 'string') {
    throw new TollgateError(
      'TOLLGATE_INVALID_OPTION',
      `limits: \`method\` must be a string such as \`GET\`, got \`${String(method)}\``,
    );
  }
  return isRead(method) ? costs.rest.read : costs.rest.write;
}

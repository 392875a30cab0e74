/** The refusal of a store that cannot decide, in the `fail-closed` mode: 503, said plainly. */
import type { LimitsConfig } from '../limits/limits-config.js';
import type { Verdict } from '../limits/verdict.js';

/**
 * A 503 verdict with `retry-after: 1`, no ticket, `degraded: 'fail-closed'`: nothing was charged.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { unavailableVerdict } from './unavailable-verdict.js';
 * unavailableVerdict('core', 5000, defaultLimits()).status; // 503
 */
export function unavailableVerdict(
  resource: Verdict['resource'],
  limit: number,
  config: LimitsConfig,
): Verdict {
  const body = {
    message: 'The rate limit store is unavailable; try again shortly.',
    documentation_url: config.answers.documentationUrl,
    status: '503',
  };
  return {
    allowed: false,
    reason: 'store_unavailable',
    rule: null,
    resource,
    limit,
    remaining: 0,
    used: 0,
    reset: 0,
    retryAt: null,
    retryAfter: 1,
    status: 503,
    headers: { [config.answers.headers.retryAfter]: '1', 'content-type': config.answers.contentType },
    body,
    ticket: null,
    degraded: 'fail-closed',
  };
}

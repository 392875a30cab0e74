/** The refusal of a store that cannot decide, in the `fail-closed` mode: 503, said plainly. */
import type { LimitsConfig } from './limits-config.js';
import type { Verdict } from './verdict.js';

/**
 * A 503 verdict with `retry-after: 1`, no ticket, `degraded: 'fail-closed'`: nothing was charged.
 * The Redis store answers it when Redis cannot decide and `onFailure` is `fail-closed`; a store of
 * your own answers it for an admission it cannot decide (its database down), and the gate answers
 * the request 503 with the same body, where a thrown error would be a 500.
 * @example
 * import { defaultLimits, unavailableVerdict } from 'tollgate/limits';
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

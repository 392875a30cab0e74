/** The gate's own answer to `GET /rate_limit`: the caller's standing, read from the store after the slot is settled. */
import type { Limiter } from '../limiter/limiter.js';
import type { LimitsIdentity } from '../limits/identity.js';
import type { LimitsStore } from '../limits/limits-store.js';
import type { RateLimitBody } from '../limits/rate-limit-body.js';
import type { Verdict } from '../limits/verdict.js';
import type { Decision } from '../policy/types.js';
import type { GateAnswer, Settle } from './gate-answer.js';
import type { GateResponses } from './gate-responses.js';
import { after, type MaybePromise } from './maybe-async.js';
import { readStatus } from './read-status.js';
import type { RequestFacts } from './request-facts.js';

const UNAVAILABLE = 'The rate limit store is unavailable; try again shortly.';

/** What the answer is made of: the admitted request, its verdict and the headers it carries. */
export interface RateLimitRequest {
  readonly facts: RequestFacts;
  readonly settle: Settle;
  readonly decision: Decision;
  readonly verdict: Verdict;
  readonly identity: LimitsIdentity;
  readonly limitHeaders: Readonly<Record<string, string>>;
}

/**
 * `GET /rate_limit` answered here (it counts no primary): the slot it was admitted with is settled,
 * then the body is the identity's standing; a 503 when the store cannot tell (fail-closed). A
 * status read that fails otherwise frees the slot before the error goes on. Its own function: its
 * closures would otherwise cost every request the gate answers a context object.
 * @example
 * import { createGate } from 'tollgate';
 * const gate = createGate({ lookupToken: () => null });
 * const answer = await gate.check({ method: 'GET', target: '/rate_limit', header: () => undefined, remoteAddress: '203.0.113.7' });
 * answer.action === 'respond' && answer.status; // 200
 */
export function rateLimitAnswer(
  limiter: Limiter<LimitsStore>,
  responses: Pick<GateResponses, 'respond' | 'headOnly'>,
  request: RateLimitRequest,
): MaybePromise<GateAnswer> {
  const { facts, settle, decision, verdict, limitHeaders } = request;
  const { respond, headOnly } = responses;
  const answered = (status: RateLimitBody | null) =>
    after(settle.finish(status === null ? 503 : 200), (): GateAnswer => {
      // The store could not tell (fail-closed): said plainly, the slot freed all the same.
      const unavailable = { [limiter.config.answers.headers.retryAfter]: '1' };
      if (status === null)
        return respond(facts, 503, UNAVAILABLE, 'store_unavailable', decision, verdict, unavailable);
      return {
        ...respond(facts, 200, '', 'rate_limit', decision, verdict, {
          ...decision.headers,
          ...limitHeaders,
        }),
        body: headOnly(facts) ? '' : JSON.stringify(status),
      };
    });
  const failed = (error: unknown): never => {
    void settle.abort();
    throw error;
  };
  try {
    const status = readStatus(limiter, request.identity);
    return status instanceof Promise ? status.then(answered, failed) : answered(status);
  } catch (error) {
    return failed(error);
  }
}

/** The limiter's answer to an event: allowed or not, by which rule, and the response to send. */

import type { IdentityState } from './identity-state.js';
import type { Ticket } from './limit-event.js';
import type { LimitRule, LimitsResource } from './limits-config.js';

/**
 * Stable reason codes of a Verdict.
 * @example
 * import { createLimiter } from 'tollgate';
 * import type { LimitReason } from 'tollgate/limits';
 * const limiter = createLimiter();
 * const verdict = limiter.admit({ identity: limiter.identify({ kind: 'classic', user: 'octocat' }) });
 * const reason: LimitReason = verdict.reason; // 'allowed'
 */
export type LimitReason = 'allowed' | 'primary_rate_limit' | 'secondary_rate_limit' | 'store_unavailable';

/**
 * JSON body of a limited response. `status` is a string, as the service's error bodies carry it.
 * @example
 * import type { LimitBody } from 'tollgate/limits';
 * const body: LimitBody = { message: 'You have exceeded a secondary rate limit ...', documentation_url: '...', status: '403' };
 */
export interface LimitBody {
  readonly message: string;
  readonly documentation_url: string;
  readonly status: string;
}

/**
 * The answer of `step` and of the limiter. Never thrown: a limit is a value.
 * @example
 * import { createLimiter, type Verdict } from 'tollgate';
 * const limiter = createLimiter();
 * const verdict: Verdict = limiter.admit({ identity: limiter.identify({ kind: 'anonymous', ip: '203.0.113.7' }) });
 * verdict.remaining; // 59
 */
export interface Verdict {
  readonly allowed: boolean;
  readonly reason: LimitReason;
  /** The rule that denied (the first in `LIMIT_RULES` order), or null. */
  readonly rule: LimitRule | null;
  readonly resource: LimitsResource;
  /** The primary window of `resource`: limit, remaining, used, reset (epoch seconds). */
  readonly limit: number;
  readonly remaining: number;
  readonly used: number;
  /**
   * When the primary window ends, in epoch SECONDS (the `x-ratelimit-reset` header's unit). The
   * functions that build verdicts take it in epoch ms (`resetMs`), as the state stores it.
   */
  readonly reset: number;
  /** Epoch ms when every rule that denied frees up (null when allowed). */
  readonly retryAt: number | null;
  /** Seconds to wait, as the `retry-after` header: secondary denials only, else null. */
  readonly retryAfter: number | null;
  /** 403 or 429 when denied (per config), null when allowed: the server's own status applies. */
  readonly status: number | null;
  /** `x-ratelimit-*` always; `retry-after` on secondary limits; `content-type` with a body. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: LimitBody | null;
  /** Pass to `complete`/`release` once the response is sent; null when denied. */
  readonly ticket: Ticket | null;
  /**
   * Set when a shared store could not answer and its failure mode decided instead: `fail-open`
   * (admitted unchecked), `fail-closed` (refused, 503) or `fallback` (decided by a local store).
   */
  readonly degraded?: 'fail-open' | 'fail-closed' | 'fallback';
}

/**
 * Result of `step`: the identity's next state and the verdict. A denied admission returns the very
 * state object it was given (a denied request charges nothing).
 * @example
 * import { defaultLimits, type StepResult, step } from 'tollgate/limits';
 * const { state, verdict }: StepResult = step(undefined, { kind: 'admit', key: 'ip:203.0.113.7', resource: 'core',
 *   limit: 60, cost: 1, content: false, graphql: false, countsPrimary: true }, Date.now(), defaultLimits());
 * state.coreUsed; // 1
 */
export interface StepResult {
  readonly state: IdentityState;
  readonly verdict: Verdict;
}

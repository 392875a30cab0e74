/** The client rules of seed 000, "Client behaviour when limited", as a pure function. */

/**
 * A response as `retryDelay` reads it: status and lowercased header names; the body if parsed.
 * @example
 * import type { LimitedResponse } from 'tollgate';
 * async function limitedOf(res: Response): Promise<LimitedResponse> {
 *   return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.json() };
 * }
 */
export interface LimitedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The parsed JSON body, when available: a `message` without "rate limit" is not a limit. */
  readonly body?: unknown;
}

/**
 * Options of `retryDelay`; the defaults are data/limits.yaml's `client` section.
 * @example
 * import type { RetryDelayOptions } from 'tollgate/limits';
 * const options: RetryDelayOptions = { now: Date.now(), maxRetries: 3 };
 */
export interface RetryDelayOptions {
  /** The current time, epoch ms (the reset header is absolute). */
  readonly now: number;
  /** Rule 4: "wait at least one minute". Default 60. */
  readonly minWaitSeconds?: number;
  /** Rule 4: "wait exponentially longer". Default 2. */
  readonly backoffFactor?: number;
  /** Rule 4: "give up after a bounded number of retries". Default 5. */
  readonly maxRetries?: number;
}

function header(response: LimitedResponse, name: string): number | undefined {
  const raw = response.headers[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

function isRateLimit(response: LimitedResponse): boolean {
  if (response.status !== 403 && response.status !== 429) return false;
  const message = (response.body as { message?: unknown } | undefined)?.message;
  // Without a body, a 403/429 counts as limited; with one, only a rate-limit message does.
  return typeof message !== 'string' || /rate limit/i.test(message);
}

/**
 * Milliseconds to wait before retrying a limited request, or null to give up (or not retry: the
 * response is not a rate limit). `attempt` counts failures so far: 1 after the first.
 * - Rule 1: primary limit (`x-ratelimit-remaining: 0`): not before `x-ratelimit-reset`.
 * - Rule 2: secondary limit with `retry-after`: that many seconds.
 * - Rule 3: no `retry-after`, remaining 0: until `x-ratelimit-reset`.
 * - Rule 4: otherwise at least a minute, growing `backoffFactor`-fold per failure; null after
 *   `maxRetries` failures.
 * - Rule 5: retrying while limited may get an integration banned, so the delay is never shorter
 *   than any of these: the largest applies.
 * @example
 * import { retryDelay } from 'tollgate';
 * retryDelay({ status: 403, headers: { 'retry-after': '30' } }, 1, { now: Date.now() }); // 30000
 */
export function retryDelay(
  response: LimitedResponse,
  attempt: number,
  options: RetryDelayOptions,
): number | null {
  const maxRetries = options.maxRetries ?? 5;
  if (!isRateLimit(response) || attempt > maxRetries) return null;
  const retryAfter = header(response, 'retry-after');
  const remaining = header(response, 'x-ratelimit-remaining');
  const reset = header(response, 'x-ratelimit-reset');
  let delay = 0;
  let ruled = false;
  // seed 000, "Client behaviour when limited", rule 2.
  if (retryAfter !== undefined && retryAfter >= 0) {
    delay = Math.max(delay, Math.ceil(retryAfter * 1000));
    ruled = true;
  }
  // seed 000, "Client behaviour when limited", rules 1 and 3.
  if (remaining === 0 && reset !== undefined) {
    delay = Math.max(delay, reset * 1000 - options.now);
    ruled = true;
  }
  if (!ruled) {
    // seed 000, "Client behaviour when limited", rule 4.
    const base = (options.minWaitSeconds ?? 60) * 1000;
    delay = base * (options.backoffFactor ?? 2) ** Math.max(0, attempt - 1);
  }
  return Math.max(0, Math.ceil(delay));
}

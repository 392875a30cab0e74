/** `X-Poll-Interval`, `Last-Modified` and the 304 rule of seed 000, "Polling rules". */
import type { LimitsConfig } from './limits-config.js';

/**
 * Seconds a client should wait between polls (seed 000, "Polling rules", rule 1: it "can grow
 * under load"). `load` is a fraction: how full the caller's window is (`verdict.used / verdict.limit`)
 * or the server's own measure. tollgate's choice, since the seed shows no numbers: the table's
 * interval (60 s) up to half load, doubling for each further quarter, at most the table's maximum.
 * Worked example: load 0.3 -> 60; 0.6 -> 120; 0.9 -> 240; 1.0 -> 240; 1.2 -> 480.
 * @example
 * import { createLimiter } from 'tollgate';
 * import { pollInterval } from 'tollgate/limits';
 * const limiter = createLimiter();
 * const verdict = limiter.admit({ identity: limiter.identify({ kind: 'classic', user: 'octocat' }) });
 * pollInterval(verdict.used / verdict.limit, limiter.config); // 60
 */
export function pollInterval(load: number, config: LimitsConfig): number {
  const { intervalSeconds, maxIntervalSeconds } = config.polling;
  // INVARIANT: the interval never shrinks as load grows, and stays within [interval, max].
  const steps = load > 0.5 ? Math.ceil((Math.min(load, 10) - 0.5) / 0.25) : 0;
  return Math.min(maxIntervalSeconds, Math.max(intervalSeconds, intervalSeconds * 2 ** steps));
}

/**
 * An HTTP date (`Last-Modified`) for epoch ms.
 * @example
 * import { httpDate } from 'tollgate/limits';
 * httpDate(0); // 'Thu, 01 Jan 1970 00:00:00 GMT'
 */
export function httpDate(epochMs: number): string {
  return new Date(epochMs).toUTCString();
}

/**
 * True when the request repeats the `Last-Modified` value exactly in `If-Modified-Since` and
 * nothing is new: answer 304, which does not count against the primary limit (seed 000,
 * "Polling rules", rule 2; complete the request with status 304 to refund it).
 * @example
 * import { httpDate, notModified } from 'tollgate/limits';
 * const lastModified = httpDate(1_700_000_000_000); // 'Tue, 14 Nov 2023 22:13:20 GMT'
 * notModified('Tue, 14 Nov 2023 22:13:20 GMT', lastModified); // true: answer 304
 */
export function notModified(ifModifiedSince: string | undefined, lastModified: string): boolean {
  return ifModifiedSince !== undefined && ifModifiedSince === lastModified;
}

/**
 * The polling headers of a `GET /notifications` answer: `Last-Modified` and `X-Poll-Interval`.
 * @example
 * import { defaultLimits, pollingHeaders } from 'tollgate/limits';
 * pollingHeaders(1_700_000_000_000, 0.2, defaultLimits()); // { 'last-modified': 'Tue, 14 Nov 2023 22:13:20 GMT', 'x-poll-interval': '60' }
 */
export function pollingHeaders(
  lastModifiedMs: number,
  load: number,
  config: LimitsConfig,
): Record<string, string> {
  const h = config.answers.headers;
  return { [h.lastModified]: httpDate(lastModifiedMs), [h.pollInterval]: String(pollInterval(load, config)) };
}

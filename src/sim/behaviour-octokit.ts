/** The `octokit` client: the rules of `@octokit/plugin-throttling` 11 and `@octokit/plugin-retry` 8, as their source states them. */
import type { BehaviourRules } from './behaviour.js';

// @octokit/plugin-throttling, src/index.ts `createGroups`: the global group allows 10 requests at
// once; writes (and GraphQL) start at least 1 s apart, writes that trigger notifications 3 s
// apart, searches 2 s apart. Each group keys by the client's id: one caller is one client.
const MAX_CONCURRENT = 10;
const WRITE_MS = 1_000;
const NOTIFICATION_MS = 3_000;
const SEARCH_MS = 2_000;
// src/index.ts: `fallbackSecondaryRateRetryAfter: 60`, `retryAfterBaseValue: 1000`.
const FALLBACK_SECONDARY_SECONDS = 60;
/** The usual handlers (`retryCount < 1`): retry once. `retry.maxRetries` in the scenario says otherwise. */
const HANDLER_RETRIES = 1;

/**
 * Octokit with the throttling and retry plugins:
 * - spacing (throttling `wrap-request.ts`): a request waits its turn in the write group (any
 *   method but GET/HEAD, and GraphQL), then the notification group (writes to the paths that
 *   trigger notifications), the search group (`GET /search/...`), then the global group (at most
 *   10 in flight; a retry has weight 0 and takes no slot). Turns are taken in arrival order.
 * - a 403/429 whose message names a secondary rate limit: `onSecondaryRateLimit(retry-after, or 60)`;
 *   one with `x-ratelimit-remaining: 0`: `onRateLimit(ceil((reset - now) / 1 s) + 1)`; the
 *   handler retries while `retryCount < retries` (1 by default), after that many seconds.
 * - anything else (a 401/403/404 of the policy) is in the retry plugin's `doNotRetry`: given up.
 * There is no shared hold: while one request waits to retry, the others go on, as in the plugins.
 * @example
 * import { octokit } from './behaviour-octokit.js';
 * octokit.sharesHold; // false
 */
export const octokit: BehaviourRules = {
  scheduled: false,
  sharesHold: false,
  readsAnswer: true,
  readyAt: (run, worker, now) => {
    const request = worker.request!;
    if (!worker.spaced) {
      worker.spaced = true;
      const next = run.nextAt;
      const settings = run.spec.octokit;
      let at = now;
      if (
        request.spacing === 'write' ||
        request.spacing === 'graphql' ||
        request.spacing === 'notification'
      ) {
        at = Math.max(at, next.write);
        next.write = at + (settings?.writeSpacingMs ?? WRITE_MS);
      }
      if (request.spacing === 'notification') {
        at = Math.max(at, next.notification);
        next.notification = at + (settings?.notificationSpacingMs ?? NOTIFICATION_MS);
      }
      if (request.spacing === 'search') {
        at = Math.max(at, next.search);
        next.search = at + (settings?.searchSpacingMs ?? SEARCH_MS);
      }
      if (at > now) return at;
    }
    // A retry is scheduled with weight 0: it takes no slot of the global group.
    if (worker.attempt === 0 && run.pending >= (run.spec.octokit?.maxConcurrent ?? MAX_CONCURRENT))
      return Number.POSITIVE_INFINITY;
    return now;
  },
  retryWait: (run, worker, response, answeredAt) => {
    if (response.status !== 403 && response.status !== 429) return null;
    const message = (response.body as { message?: unknown } | null | undefined)?.message;
    let seconds: number;
    if (typeof message === 'string' && /\bsecondary rate\b/i.test(message))
      seconds = Number(response.headers['retry-after']) || FALLBACK_SECONDARY_SECONDS;
    else if (response.headers['x-ratelimit-remaining'] === '0')
      seconds = Math.max(
        Math.ceil((Number(response.headers['x-ratelimit-reset']) * 1000 - answeredAt) / 1000) + 1,
        0,
      );
    else return null;
    // The handler sees retryCount: failures before this one.
    if (worker.attempt - 1 >= (run.spec.retry?.maxRetries ?? HANDLER_RETRIES)) return null;
    // The retry goes through every group again (the plugin schedules the whole request anew).
    worker.spaced = false;
    return seconds * 1000;
  },
};

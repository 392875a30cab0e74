/** The service's answers: rate-limit headers on every verdict, and the limited response. */
// Hot path: builds every verdict; bench/limits.mjs guards its speed.
import { countText, resetText, windowHeaders } from './header-text.js';
import type { Ticket } from './limit-event.js';
import type { LimitRule, LimitsConfig, LimitsResource } from './limits-config.js';
import type { LimitBody, Verdict } from './verdict.js';
import { allowedVerdictClass, DeniedVerdict } from './verdict-objects.js';

/**
 * The `x-ratelimit-*` headers of a primary window (seed 000, "Rate limit response headers").
 * `resetMs` is the window's end in epoch ms; the header carries epoch seconds.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { rateLimitHeaders } from './answers.js';
 * rateLimitHeaders('core', 5000, 1, 1_700_003_600_000, defaultLimits());
 * // { 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '4999', 'x-ratelimit-used': '1',
 * //   'x-ratelimit-reset': '1700003600', 'x-ratelimit-resource': 'core' }
 */
export function rateLimitHeaders(
  resource: LimitsResource,
  limit: number,
  used: number,
  resetMs: number,
  config: LimitsConfig,
): Record<string, string> {
  // INVARIANT: remaining is never negative, and used + remaining = limit while used <= limit.
  return windowHeaders(
    resource,
    countText(limit),
    countText(used >= limit ? 0 : limit - used),
    countText(used),
    resetText(Math.ceil(resetMs / 1000)),
    config,
  );
}

/**
 * A window's end as a verdict and the `x-ratelimit-reset` header carry it: epoch seconds, from the
 * epoch ms the state stores. Window ends are whole seconds (windowEnd), so nothing is lost.
 * @example
 * import { resetSeconds } from './answers.js';
 * resetSeconds(1_700_003_600_000); // 1700003600
 */
export function resetSeconds(resetMs: number): number {
  return Math.ceil(resetMs / 1000);
}

/**
 * The verdict of an admitted request (or of a completed one): the window's numbers and headers.
 * `reset` is in epoch seconds (resetSeconds), as the verdict carries it: a whole number of seconds
 * passes to a function V8 did not inline as a small integer, where epoch ms would be boxed into a
 * 16-byte heap number on every call.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { allowedVerdict } from './answers.js';
 * const verdict = allowedVerdict('core', 5000, 1, 1_700_003_600, null, defaultLimits());
 * verdict.headers['x-ratelimit-remaining']; // '4999'
 */
export function allowedVerdict(
  resource: LimitsResource,
  limit: number,
  used: number,
  reset: number,
  ticket: Ticket | null,
  config: LimitsConfig,
): Verdict {
  return new (allowedVerdictClass(config))(resource, limit, used, reset, ticket);
}

/** The last primary body built: a caller out of requests usually keeps asking. */
let lastPrimary: { key: string; resource: LimitsResource; config: LimitsConfig; body: LimitBody } | undefined;

function primaryBody(key: string, resource: LimitsResource, config: LimitsConfig): LimitBody {
  if (
    lastPrimary !== undefined &&
    lastPrimary.key === key &&
    lastPrimary.resource === resource &&
    lastPrimary.config === config
  ) {
    return lastPrimary.body;
  }
  const answers = config.answers;
  const message = answers.messages.primary.replace('{identity}', key).replace('{resource}', resource);
  const body = Object.freeze({
    message,
    documentation_url: answers.documentationUrl,
    status: String(answers.status),
  });
  lastPrimary = { key, resource, config, body };
  return body;
}

/** Secondary bodies name no caller: built once per config and rule, shared (they are frozen). */
const secondaryBodies = new WeakMap<LimitsConfig, Map<LimitRule, LimitBody>>();

function secondaryBody(rule: LimitRule, config: LimitsConfig): LimitBody {
  let bodies = secondaryBodies.get(config);
  if (bodies === undefined) {
    bodies = new Map();
    secondaryBodies.set(config, bodies);
  }
  let body = bodies.get(rule);
  if (body === undefined) {
    const answers = config.answers;
    body = Object.freeze({
      message: answers.messages[rule],
      documentation_url: answers.documentationUrl,
      status: String(answers.status),
    });
    bodies.set(rule, body);
  }
  return body;
}

/**
 * The verdict of a denied request: status 403 (or 429 per config), the JSON body, `retry-after`
 * on secondary rules, and `x-ratelimit-remaining: 0` on the primary one (seed 000, "Errors").
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { deniedVerdict } from './answers.js';
 * const now = 1_700_000_000_000;
 * const verdict = deniedVerdict('concurrency', 'user:octocat', 'core', 5000, 3, now + 3_600_000, now + 1000, now, defaultLimits());
 * verdict.headers['retry-after']; // '1'
 */
export function deniedVerdict(
  rule: LimitRule,
  key: string,
  resource: LimitsResource,
  limit: number,
  used: number,
  resetMs: number,
  retryAt: number,
  now: number,
  config: LimitsConfig,
): Verdict {
  const answers = config.answers;
  const primary = rule === 'primary';
  const body = primary ? primaryBody(key, resource, config) : secondaryBody(rule, config);
  // A primary refusal waits for the reset (rule 1); it says retry-after only when a secondary rule,
  // full too, frees up later than that (rule 5: the longest wait wins).
  const retryAfter = primary && retryAt <= resetMs ? null : Math.max(1, Math.ceil((retryAt - now) / 1000));
  return new DeniedVerdict(
    primary ? 'primary_rate_limit' : 'secondary_rate_limit',
    rule,
    resource,
    limit,
    used,
    Math.ceil(resetMs / 1000),
    retryAt,
    retryAfter,
    answers.status,
    body,
    config,
  );
}

/**
 * The HTTP response of a denied verdict, ready to write; null when the verdict allowed.
 * @example
 * import { limitedResponse, type Verdict } from 'tollgate';
 * function denial(verdict: Verdict): Response | null {
 *   const response = limitedResponse(verdict);
 *   return response && new Response(response.body, { status: response.status, headers: response.headers });
 * }
 */
export function limitedResponse(verdict: Verdict): {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
} | null {
  if (verdict.allowed || verdict.status === null || verdict.body === null) return null;
  return { status: verdict.status, headers: verdict.headers, body: JSON.stringify(verdict.body) };
}

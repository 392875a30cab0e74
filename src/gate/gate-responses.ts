/** The answers the gate writes itself: refusal bodies with their documentation link, and the limits' headers. */
// Hot path: one call per answered request; bench/http.mjs guards the gate's cost per request.
import type { LimitsConfig } from '../limits/limits-config.js';
import type { RuleStanding } from '../limits/nearest-rule.js';
import type { Verdict } from '../limits/verdict.js';
import { AllowedVerdict } from '../limits/verdict-objects.js';
import type { Decision } from '../policy/types.js';
import {
  DEFAULT_AUTHENTICATION_URL,
  DEFAULT_PERMISSIONS_URL,
  policyDocumentationUrl,
} from './documentation-urls.js';
import type { RespondAnswer } from './gate-answer.js';
import type { GateHookOptions } from './gate-hook-options.js';
import type { RequestFacts } from './request-facts.js';
import { standardHeaders } from './standard-headers.js';

// The service's own words for answers that must not say more: a hidden resource is just not there.
const PLAIN_MESSAGES: Readonly<Record<number, string>> = { 401: 'Requires authentication', 404: 'Not Found' };

/** The gate's writers of answers, bound to its limits table and options. */
export interface GateResponses {
  /** An answer with the service's JSON body `{message, documentation_url, status}` (empty for HEAD). */
  respond(
    facts: RequestFacts,
    status: number,
    message: string,
    reason: string,
    decision: Decision | null,
    verdict: Verdict | null,
    headers: Readonly<Record<string, string>>,
  ): RespondAnswer;
  /** The refusal of a decision, with its headers and the limits' (when they were consulted). */
  refuse(
    facts: RequestFacts,
    decision: Decision,
    verdict: Verdict | null,
    limitHeaders: Readonly<Record<string, string>>,
  ): RespondAnswer;
  /**
   * The verdict's `x-ratelimit-*` headers, and the IETF fields beside them when asked for (of
   * `nearest`, the rule nearest exhaustion, when the gate read it).
   */
  limitHeadersOf(verdict: Verdict, nearest?: RuleStanding): Readonly<Record<string, string>>;
  /**
   * The headers of an answer passed on: the decision's, then the limits' (`limitHeadersOf`), which
   * win; a new object, as joinHeaders makes it.
   */
  admittedHeaders(decision: Decision, verdict: Verdict, nearest?: RuleStanding): Record<string, string>;
  /** The JSON body of a limited response (`limitedBody` of `limitedResponse`), with the configured link. */
  limitedBody(verdict: Verdict, body: string): string;
  headOnly(facts: RequestFacts): boolean;
}

/**
 * A new object with the headers of `first`, then those of `second` (which win), copied key by key.
 * Instruction counts per join (cachegrind, a one-header frozen decision set and five limit headers):
 * this loop 1,580; `Object.assign({}, first, second)` 1,670; `{ ...first, ...second }` 1,810;
 * cloning `second` and adding to the clone 6,760 (V8 gives up the clone's shape). `first` is a
 * decision's headers and `second` a verdict's: plain objects of own string keys (header names,
 * never `__proto__`) for every decision and verdict tollgate makes, where `for...in` copies
 * exactly what a spread would. A custom limiter's verdict whose headers inherit enumerable keys
 * would have those copied too (a spread would not), and its symbol keys left out.
 * @example
 * import { joinHeaders } from './gate-responses.js';
 * joinHeaders({ a: '1', b: '2' }, { b: '3' }); // { a: '1', b: '3' }
 */
export function joinHeaders(
  first: Readonly<Record<string, string>>,
  second: Readonly<Record<string, string>>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name in first) headers[name] = first[name]!;
  for (const name in second) headers[name] = second[name]!;
  return headers;
}

/**
 * The writers of the gate's answers.
 * @example
 * import { createLimiter } from 'tollgate';
 * import { createGateResponses } from './gate-responses.js';
 * const responses = createGateResponses(createLimiter().config, {}, Date.now);
 * responses.respond({ method: 'GET', target: '/', header: () => undefined }, 401, 'Bad credentials', 'bad_credentials', null, null, {}).body;
 * // '{"message":"Bad credentials","documentation_url":"https://docs.example.com/rest/authentication","status":"401"}'
 */
export function createGateResponses(
  config: LimitsConfig,
  options: GateHookOptions,
  clock: () => number,
): GateResponses {
  const answers = config.answers;
  const standardForm = options.standardHeaders ?? false;
  const urls = {
    authentication: options.documentationUrls?.authentication ?? DEFAULT_AUTHENTICATION_URL,
    permissions: options.documentationUrls?.permissions ?? DEFAULT_PERMISSIONS_URL,
  };
  // The limits' own bodies carry the table's URL; only another one makes the gate rewrite them.
  const rateLimitsUrl = options.documentationUrls?.rateLimits ?? answers.documentationUrl;
  const headOnly = (facts: RequestFacts) => facts.method.toUpperCase() === 'HEAD';

  const respond: GateResponses['respond'] = (facts, status, message, reason, decision, verdict, headers) => ({
    action: 'respond',
    status,
    headers: { ...headers, 'content-type': answers.contentType },
    body: headOnly(facts)
      ? ''
      : JSON.stringify({
          message,
          documentation_url: policyDocumentationUrl(urls, status),
          status: String(status),
        }),
    decision,
    verdict,
    reason,
  });

  const limitHeadersOf: GateResponses['limitHeadersOf'] = (verdict, nearest) =>
    standardForm === false
      ? verdict.headers
      : { ...verdict.headers, ...standardHeaders(verdict, config, standardForm, clock(), nearest) };

  return {
    respond,
    refuse: (facts, decision, verdict, limitHeaders) =>
      respond(
        facts,
        decision.status,
        PLAIN_MESSAGES[decision.status] ?? decision.message,
        decision.reason,
        decision,
        verdict,
        { ...decision.headers, ...limitHeaders },
      ),
    limitHeadersOf,
    // The store's own admitted verdicts write their window headers straight into the answer's
    // object (see namedWindowHeaders: the generic join took about 1,900 of a gate check's 19,000
    // instructions; this saves 1,000-1,600 of them). A verdict whose `headers` is its own
    // property (a wrapper's override) is joined, so its headers are the ones sent.
    admittedHeaders: (decision, verdict, nearest) =>
      standardForm === false && verdict instanceof AllowedVerdict && !Object.hasOwn(verdict, 'headers')
        ? verdict.headersAfter(decision.headers)
        : joinHeaders(decision.headers, limitHeadersOf(verdict, nearest)),
    limitedBody: (verdict, body) =>
      rateLimitsUrl === answers.documentationUrl || verdict.body === null
        ? body
        : JSON.stringify({ ...verdict.body, documentation_url: rateLimitsUrl }),
    headOnly,
  };
}

/** The gate's options around a decision: requests kept away from it, hooks, standard headers, documentation links. */
import type { Verdict } from '../limits/verdict.js';
import type { Decision } from '../policy/types.js';
import type { DocumentationUrls } from './documentation-urls.js';
import type { RequestFacts } from './request-facts.js';
import type { StandardHeadersForm } from './standard-headers.js';

/**
 * Options of `createGate` for what surrounds the decision. Each hook costs nothing when not set.
 * @example
 * import { createGate } from 'tollgate';
 * const gate = createGate({
 *   lookupToken: () => null,
 *   skip: (facts) => facts.target === '/healthz',
 *   onDecision: (decision, verdict) => console.log(decision?.reason, verdict?.remaining),
 *   onError: (error) => console.error('tollgate', error),
 *   standardHeaders: 'draft-8',
 * });
 */
export interface GateHookOptions {
  /**
   * True keeps the request away from the gate entirely (health checks, static files): no token
   * lookup, no decision, no charge, no header, no `onDecision`. Default: nothing skipped.
   */
  readonly skip?: (facts: RequestFacts) => boolean;
  /**
   * A CORS preflight (`OPTIONS` with `Access-Control-Request-Method`): `'pass'` (default) hands it
   * to the application's CORS handling uncharged, as `skip` would; `'gate'` decides it like any
   * request (the table has no `OPTIONS` endpoints, so it is refused as unknown unless passed through).
   */
  readonly corsPreflight?: 'pass' | 'gate';
  /**
   * Called synchronously with every answer of the gate, for logs and metrics. `decision` is null
   * when the gate answered before matching (bad credentials); `verdict` null when the limits were
   * not consulted (bad path, unknown endpoint, pass-through, `countDenied: false`). An object
   * returned for a refusal replaces its JSON body (status and headers stay). Default: none.
   */
  readonly onDecision?: (
    decision: Decision | null,
    verdict: Verdict | null,
    facts: RequestFacts,
    // biome-ignore lint/suspicious/noConfusingVoidType: a hook that returns nothing is the usual case.
  ) => object | undefined | void;
  /**
   * Called first with every error the gate sees (a failing `lookupToken`, `resolveContext`, store or
   * hook; a handler's error where tollgate runs the handler), before the framework's own error path:
   * `next(err)` in Express/Connect, Fastify's error handler, a 500 written to `console.error` in
   * node:http and fetch. Default: none.
   */
  readonly onError?: (error: unknown, facts: RequestFacts) => void;
  /**
   * IETF `RateLimit` headers beside the service's `x-ratelimit-*`, for the rule nearest exhaustion:
   * `false` (default), `'draft-8'` (`RateLimit-Policy: "core";q=5000;w=3600` and `RateLimit:
   * "core";r=4999;t=1800`, as in the current draft-ietf-httpapi-ratelimit-headers) or `'draft-7'`
   * (`RateLimit-Policy: 5000;w=3600` and `RateLimit: limit=5000, remaining=4999, reset=1800`).
   */
  readonly standardHeaders?: StandardHeadersForm;
  /** The `documentation_url` of each kind of refusal; see DocumentationUrls for the defaults. */
  readonly documentationUrls?: DocumentationUrls;
}

/** Where a request lands in the tables, read once: the first of the policy's two stages. */
import type { EndpointEntry } from './tables.js';

/**
 * A request matched to an endpoint: the table's own row (its requirements and its limit charge)
 * and the decoded path parameters, as find-my-way's `find` returns the route's store. Made by
 * `policy.match`; `policy.decide` evaluates it for a token and the server's facts, as often as
 * needed, without reading the path again.
 * @example
 * import { createPolicy, shippedTables } from 'tollgate';
 * const match = createPolicy(shippedTables()).match({ method: 'GET', path: '/repos/acme/app/issues/events' });
 * match.kind === 'endpoint' ? match.entry.charge.resource : null; // 'core'
 */
export interface EndpointMatch {
  readonly kind: 'endpoint';
  /** The endpoint's row: `key`, requirements, `resource`, `cost`, `content`, `countsAgainstPrimary`. */
  readonly entry: EndpointEntry;
  /** Decoded path parameters. */
  readonly params: Readonly<Record<string, string>>;
  /** The method as matched (letters upper-cased; `HEAD` stays `HEAD` on a `GET` endpoint). */
  readonly method: string;
  /** The `X-Service-Api-Version` the request sent, or null. */
  readonly apiVersion: string | null;
  /** The row's index in the policy's `tables.endpoints`: how `decide` finds its compiled plan. */
  readonly route: number;
}

/**
 * A request that lands on no endpoint: a path the routers would read differently (`bad_path`,
 * refused with 400) or one outside the tables (`no_match`: 404, or passed through when the policy
 * says so).
 * @example
 * import { createPolicy, shippedTables } from 'tollgate';
 * createPolicy(shippedTables()).match({ method: 'GET', path: '/no/such/thing' }).kind; // 'no_match'
 */
export interface UnmatchedRequest {
  readonly kind: 'bad_path' | 'no_match';
  readonly method: string;
  /** For `bad_path`, what is wrong with the path; for `no_match`, the path without its query. */
  readonly detail: string;
}

/**
 * What `policy.match` returns.
 * @example
 * import type { PolicyMatch } from 'tollgate/policy';
 * const isEndpoint = (match: PolicyMatch) => match.kind === 'endpoint';
 */
export type PolicyMatch = EndpointMatch | UnmatchedRequest;

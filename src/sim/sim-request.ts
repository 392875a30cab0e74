/** A request of a caller's mix, compiled once: what the limiter charges and how a client spaces it. */

import type { LimitsResource } from '../core/limit-charge.js';
import type { AdmitRequest } from '../limiter/limiter.js';
import type { LimitsIdentity } from '../limits/identity.js';
import type { EndpointEntry } from '../policy/tables.js';
import type { Decision } from '../policy/types.js';
import { type OctokitSpacing, octokitSpacing } from './octokit-paths.js';

/** One kind of request a caller sends. */
export interface SimRequest {
  /** The mix entry's key: `GET /repos/{owner}/{repo}/issues/events`, `POST /graphql mutation`. */
  readonly key: string;
  readonly method: string;
  /** A concrete path for the template (`/repos/octo/app/issues/events`), as a client sends it. */
  readonly path: string;
  /** The table's row, or null for traffic outside the table (GraphQL, search, LFS). */
  readonly entry: EndpointEntry | null;
  /** What the limiter is asked, the caller's identity included (built once, sent every time). */
  readonly admit: AdmitRequest;
  /** The policy's decision for the caller's token and the resource's visibility; null outside the table. */
  readonly decision: Decision | null;
  /** The throttling plugin's group for it (octokit behaviour). */
  readonly spacing: OctokitSpacing;
}

/** Placeholder values for path parameters: a repository `octo/app`, numbers elsewhere. */
const PLACEHOLDERS: Readonly<Record<string, string>> = { owner: 'octo', repo: 'app', org: 'octo' };

/**
 * A concrete path for a template: each `{param}` replaced by a plain value.
 * @example
 * import { concretePath } from './sim-request.js';
 * concretePath('/repos/{owner}/{repo}/issues/{issue_number}'); // '/repos/octo/app/issues/1'
 */
export function concretePath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => PLACEHOLDERS[name] ?? '1');
}

/**
 * A table endpoint as a simulated request: charged as the gate charges it (its resource, cost,
 * content and primary counting from the row).
 * @example
 * import { shippedTables } from 'tollgate';
 * import { createLimiter } from 'tollgate';
 * import { tableRequest } from './sim-request.js';
 * const entry = shippedTables().endpoints.find((e) => e.key === 'POST /repos/{owner}/{repo}/issues')!;
 * tableRequest(entry, createLimiter().identify({ kind: 'classic', user: 'octocat' }), null).spacing; // 'notification'
 */
export function tableRequest(
  entry: EndpointEntry,
  identity: LimitsIdentity,
  decision: Decision | null,
): SimRequest {
  const path = concretePath(entry.template);
  return {
    key: entry.key,
    method: entry.method,
    path,
    entry,
    // As the gate builds it (src/gate/create-gate.ts, `limit`).
    admit: {
      identity,
      method: entry.method,
      ...entry.charge,
    },
    decision,
    spacing: octokitSpacing(entry.method, path),
  };
}

/** Traffic outside the endpoint table that the limits still count: GraphQL, search, LFS. */
export const SERVICE_TRAFFIC: Readonly<
  Record<string, { method: string; path: string; resource: LimitsResource; graphql?: true; mutation?: true }>
> = {
  // seed 000, "Secondary rate limits", point costs: "GraphQL request without mutation 1; GraphQL with mutation 5".
  'POST /graphql': { method: 'POST', path: '/graphql', resource: 'graphql', graphql: true },
  'POST /graphql mutation': {
    method: 'POST',
    path: '/graphql',
    resource: 'graphql',
    graphql: true,
    mutation: true,
  },
  // seed 000, "Primary rate limits": search has "a separate rate limit resource".
  'GET /search/code': { method: 'GET', path: '/search/code', resource: 'search' },
  'GET /search/commits': { method: 'GET', path: '/search/commits', resource: 'search' },
  'GET /search/issues': { method: 'GET', path: '/search/issues', resource: 'search' },
  'GET /search/repositories': { method: 'GET', path: '/search/repositories', resource: 'search' },
  'GET /search/users': { method: 'GET', path: '/search/users', resource: 'search' },
  // seed 000, "Primary rate limits": large-file storage, "per minute (separate bucket)"; the batch interface.
  'POST /{owner}/{repo}.git/info/lfs/objects/batch': {
    method: 'POST',
    path: '/octo/app.git/info/lfs/objects/batch',
    resource: 'lfs',
  },
};

/**
 * A request outside the table (a key of SERVICE_TRAFFIC) as the limiter counts it: GraphQL with
 * its points (1 a query, 5 a mutation) on its own primary resource and CPU rule, search and LFS on
 * theirs.
 * @example
 * import { createLimiter } from 'tollgate';
 * import { serviceRequest } from './sim-request.js';
 * serviceRequest('POST /graphql mutation', createLimiter().identify({ kind: 'classic', user: 'octocat' })).admit.mutation; // true
 */
export function serviceRequest(key: string, identity: LimitsIdentity): SimRequest {
  const traffic = SERVICE_TRAFFIC[key]!;
  return {
    key,
    method: traffic.method,
    path: traffic.path,
    entry: null,
    admit: {
      identity,
      method: traffic.method,
      resource: traffic.resource,
      ...(traffic.graphql === undefined ? {} : { graphql: true }),
      ...(traffic.mutation === undefined ? {} : { mutation: true }),
    },
    decision: null,
    spacing: octokitSpacing(traffic.method, traffic.path),
  };
}

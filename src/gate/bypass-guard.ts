/** `skip` never exempts a table endpoint: a request it would keep away is gated anyway when its path names one. */
import { matchRoute } from '../routes/route-tree.js';
import type { RouteTree } from '../routes/route-types.js';
import type { BasePath } from './base-path.js';
import type { RequestFacts } from './request-facts.js';

/**
 * Wraps the gate's bypass (`skip`, CORS preflights): a request it would keep away still goes
 * through the gate when its path, under the base path, names a table endpoint in any spelling, or
 * is a path the matcher refuses. So `skip: (facts) => !facts.target.startsWith('/api')` cannot
 * let `/API/repos/...` reach a case-insensitive router's handler unchecked (issue 18, item 1).
 * Costs one match per request the bypass keeps away, none for the others.
 * @example
 * import { createBasePath } from './base-path.js';
 * import { guardBypass } from './bypass-guard.js';
 * import { shippedTables } from 'tollgate';
 * const bypass = guardBypass((facts) => !facts.target.startsWith('/api'), createBasePath('/api'), shippedTables().routes);
 * bypass?.({ method: 'GET', target: '/healthz', header: () => undefined });              // true
 * bypass?.({ method: 'GET', target: '/API/repos/o/r/issues', header: () => undefined }); // false
 */
export function guardBypass(
  bypass: ((facts: RequestFacts) => boolean) | null,
  basePath: BasePath,
  routes: RouteTree,
): ((facts: RequestFacts) => boolean) | null {
  if (bypass === null) return null;
  return (facts) => {
    if (!bypass(facts)) return false;
    const path = basePath.strip(facts.target);
    if (path === null) return true;
    const method = facts.method.toUpperCase();
    const match = matchRoute(routes, method, path);
    if (match.kind === 'no_match' && method === 'HEAD')
      return matchRoute(routes, 'GET', path).kind === 'no_match';
    return match.kind === 'no_match';
  };
}

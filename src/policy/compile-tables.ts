/** The table compiler: scopes catalog, overlays merged, each endpoint compiled, routes compiled; every problem reported. */
import type { Issue } from '../core/issue.js';
import { issuesError } from '../core/issue.js';
import { tryCompileRoutes } from '../routes/route-tree.js';
import type { RouteInput } from '../routes/route-types.js';
import { compileCatalog } from './compile-catalog.js';
import { compileEndpoint } from './compile-endpoint.js';
import { mergeOverlays } from './merge-overlays.js';
import { issueReporter, type TableSources } from './table-sources.js';
import type { EndpointEntry, PolicyTables } from './tables.js';

export type { TableSource, TableSources } from './table-sources.js';

/**
 * Compiles the tables, returning every problem found; `tables` is present only when there are none.
 * @example
 * import { compileTables } from 'tollgate/policy';
 * import { shippedSources } from 'tollgate/policy';
 * const { tables, issues } = compileTables(shippedSources);
 * issues.length; // 0
 */
export function compileTables(sources: TableSources): { tables?: PolicyTables; issues: Issue[] } {
  const issues: Issue[] = [];
  const report = issueReporter(issues);
  const catalog = compileCatalog(sources.scopes, report);
  const merged = mergeOverlays(sources);
  const rules = sources.permissions.value.rules ?? {};
  const endpoints: EndpointEntry[] = [];
  const routeInputs: RouteInput[] = [];
  for (const [key, endpoint] of merged) {
    const compiled = compileEndpoint(key, endpoint, rules, catalog, report);
    if (compiled === null) continue;
    endpoints.push(compiled.entry);
    routeInputs.push(compiled.route);
  }
  if (issues.length > 0) return { issues };
  const routes = tryCompileRoutes(routeInputs);
  if (routes.tree === undefined) {
    // Each refused route is reported where its endpoint was written.
    for (const problem of routes.issues) {
      const key = endpoints[problem.route]?.key;
      const owner = key === undefined ? undefined : merged.get(key);
      if (owner === undefined || key === undefined)
        report(sources.permissions, ['endpoints'], { code: problem.code, message: problem.message });
      else report(owner.source, ['endpoints', key], { code: problem.code, message: problem.message }, true);
    }
    return { issues };
  }
  const { permissions, scopeClosure } = catalog;
  return { tables: { endpoints, routes: routes.tree, scopeClosure, permissions }, issues };
}

/**
 * Like `compileTables`, but throws one TollgateError (code TOLLGATE_INVALID_TABLE) listing every problem.
 * @example
 * import { compileTablesOrThrow } from './compile-tables.js';
 * import { shippedSources } from 'tollgate/policy';
 * compileTablesOrThrow(shippedSources).endpoints.length; // 535
 */
export function compileTablesOrThrow(sources: TableSources): PolicyTables {
  const { tables, issues } = compileTables(sources);
  if (tables === undefined) throw issuesError('TOLLGATE_INVALID_TABLE', issues, 'the tables');
  return tables;
}

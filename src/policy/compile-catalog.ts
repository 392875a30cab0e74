/** The scopes table compiled: the permission catalog, the scope hierarchy closed, unknown implied scopes reported. */
import { didYouMean } from '../core/suggest.js';
import { closeScopes } from './scope-closure.js';
import type { Report, TableSource } from './table-sources.js';
import type { PermissionInfo, RawScopesTable } from './tables.js';

/** The catalogs every endpoint requirement is checked against. */
export interface Catalog {
  readonly permissions: Map<string, PermissionInfo>;
  readonly scopeClosure: ReturnType<typeof closeScopes>;
  readonly scopeNames: readonly string[];
}

/**
 * Reads `data/scopes.yaml`'s value: permission slugs with their levels, scopes with what they imply.
 * @example
 * import { shippedSources } from 'tollgate/policy';
 * import { compileCatalog } from './compile-catalog.js';
 * import { issueReporter } from './table-sources.js';
 * compileCatalog(shippedSources.scopes, issueReporter([])).scopeClosure.get('repo'); // Set { 'repo', 'repo:status', ... }
 */
export function compileCatalog(source: TableSource<RawScopesTable>, report: Report): Catalog {
  const table = source.value;
  const permissions = new Map<string, PermissionInfo>();
  for (const [slug, info] of Object.entries(table.permissions)) permissions.set(slug, { slug, ...info });
  const scopeNames = Object.keys(table.scopes);
  for (const [scope, { implies }] of Object.entries(table.scopes)) {
    implies.forEach((implied, i) => {
      if (!Object.hasOwn(table.scopes, implied))
        report(source, ['scopes', scope, 'implies', i], {
          code: 'unknown_scope',
          message: `scope \`${scope}\` implies unknown scope \`${implied}\`${didYouMean(implied, scopeNames)}`,
          hint: 'list the implied scope under `scopes` too',
        });
    });
  }
  return { permissions, scopeClosure: closeScopes(table.scopes), scopeNames };
}

/** Requirements in a table checked against the catalogs: every slug, level and scope must exist. */
import { didYouMean } from '../core/suggest.js';
import type { Catalog } from './compile-catalog.js';
import type { Report, TableSource } from './table-sources.js';
import type { RawScopeRequirement } from './tables.js';
import type { Requirement } from './types.js';

/**
 * Reports each unknown permission slug (at its key) and each level the permission does not offer.
 * @example
 * import { shippedSources } from 'tollgate/policy';
 * import { checkPermissions } from './check-requirements.js';
 * import { compileCatalog } from './compile-catalog.js';
 * import type { Report } from './table-sources.js';
 * const report: Report = (source, path, issue) => console.log(`${source.file}: ${issue.message}`);
 * const catalog = compileCatalog(shippedSources.scopes, report);
 * checkPermissions(catalog, report, { file: 'overlay.yaml', value: {} }, ['endpoints', 'GET /x', 'fine_grained'], [{ isues: 'read' }]);
 * // logs "overlay.yaml: unknown permission `isues` (did you mean `issues`?)"
 */
export function checkPermissions(
  catalog: Catalog,
  report: Report,
  source: TableSource<unknown>,
  path: (string | number)[],
  requirement: Requirement,
): void {
  requirement.forEach((alternative, i) => {
    for (const [slug, level] of Object.entries(alternative)) {
      const info = catalog.permissions.get(slug);
      if (info === undefined)
        report(
          source,
          [...path, i, slug],
          {
            code: 'unknown_permission',
            message: `unknown permission \`${slug}\`${didYouMean(slug, [...catalog.permissions.keys()])}`,
            hint: 'permissions are listed in data/scopes.yaml',
          },
          true,
        );
      else if (!info.levels.includes(level))
        report(source, [...path, i, slug], {
          code: 'unknown_level',
          message: `permission \`${slug}\` has no level \`${level}\``,
          hint: `valid levels: ${info.levels.join(', ')}`,
        });
    }
  });
}

/**
 * Reports each scope of a classic requirement that the scopes table does not list.
 * @example
 * import { shippedSources } from 'tollgate/policy';
 * import { checkScopes } from './check-requirements.js';
 * import { compileCatalog } from './compile-catalog.js';
 * import type { Report } from './table-sources.js';
 * const report: Report = (source, path, issue) => console.log(`${source.file}: ${issue.message}`);
 * const catalog = compileCatalog(shippedSources.scopes, report);
 * checkScopes(catalog, report, { file: 'overlay.yaml', value: {} }, ['endpoints', 'GET /x', 'classic'], [['repo', 'admn:org']]);
 * // logs "overlay.yaml: unknown scope `admn:org` (did you mean `admin:org`?)"
 */
export function checkScopes(
  catalog: Catalog,
  report: Report,
  source: TableSource<unknown>,
  path: (string | number)[],
  requirement: RawScopeRequirement | undefined,
): void {
  if (requirement === undefined || typeof requirement === 'string') return;
  requirement.forEach((alternative, i) => {
    alternative.forEach((scope, j) => {
      if (!catalog.scopeClosure.has(scope))
        report(source, [...path, i, j], {
          code: 'unknown_scope',
          message: `unknown scope \`${scope}\`${didYouMean(scope, catalog.scopeNames)}`,
          hint: 'scopes are listed in data/scopes.yaml',
        });
    });
  });
}

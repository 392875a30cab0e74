/** The tables the package ships, precompiled to JSON at build time and compiled once on first use. */
import permissions from '../generated/permissions.json';
import scopes from '../generated/scopes.json';
import { compileTablesOrThrow, type TableSource } from '../policy/compile-tables.js';
import type { PolicyTables, RawPermissionsTable, RawScopesTable } from '../policy/tables.js';

let shipped: PolicyTables | undefined;

/** The shipped raw tables, as written in `data/` (validated at build time). */
export const shippedSources = {
  permissions: { file: 'data/permissions.yaml', value: permissions as unknown as RawPermissionsTable },
  scopes: { file: 'data/scopes.yaml', value: scopes as unknown as RawScopesTable },
} as const satisfies { permissions: TableSource<RawPermissionsTable>; scopes: TableSource<RawScopesTable> };

/**
 * The shipped tables, compiled on first call and cached.
 * @example
 * import { loadShippedTables } from 'tollgate';
 * loadShippedTables().endpoints.length; // every endpoint of both seeds
 */
export function loadShippedTables(): PolicyTables {
  shipped ??= compileTablesOrThrow(shippedSources);
  return shipped;
}

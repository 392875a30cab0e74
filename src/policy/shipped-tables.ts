/** The tables the package ships, precompiled to JSON at build time and compiled once on first use. */
import permissions from '../generated/permissions.json';
import scopes from '../generated/scopes.json';
import { compileTablesOrThrow, type TableSource } from './compile-tables.js';
import type { PolicyTables, RawPermissionsTable, RawScopesTable } from './tables.js';

let shipped: PolicyTables | undefined;

/**
 * The shipped raw tables, as written in `data/` (validated at build time): compile them with your
 * own changes, or read them.
 * @example
 * import { compileTables, shippedSources } from 'tollgate/policy';
 * compileTables(shippedSources).issues.length; // 0
 */
export const shippedSources = {
  permissions: { file: 'data/permissions.yaml', value: permissions as unknown as RawPermissionsTable },
  scopes: { file: 'data/scopes.yaml', value: scopes as unknown as RawScopesTable },
} as const satisfies { permissions: TableSource<RawPermissionsTable>; scopes: TableSource<RawScopesTable> };

/**
 * The shipped tables, compiled on first call and cached.
 * @example
 * import { shippedTables } from 'tollgate';
 * shippedTables().endpoints.length; // 535: every endpoint of both seeds
 */
export function shippedTables(): PolicyTables {
  shipped ??= compileTablesOrThrow(shippedSources);
  return shipped;
}

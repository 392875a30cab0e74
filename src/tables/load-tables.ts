/** Loads tables from files (Node): the shipped ones plus overlays, validated with positions. */
import { readFileSync } from 'node:fs';
import { TollgateError } from '../core/errors.js';
import { type Issue, issuesError } from '../core/issue.js';
import { compileTables } from '../policy/compile-tables.js';
import { shippedSources } from '../policy/shipped-tables.js';
import type { PolicyTables, RawPermissionsTable } from '../policy/tables.js';
import { loadTableText } from './load-table-text.js';

/**
 * Reads a file as text, turning an unreadable file into a TollgateError naming it.
 * @example
 * import { loadTableText, readTextFile } from 'tollgate/tables';
 * const loaded = loadTableText(readTextFile('data/scopes.yaml'), 'data/scopes.yaml', 'scopes');
 * loaded.issues.length; // 0
 */
export function readTextFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new TollgateError('TOLLGATE_INVALID_INPUT', `cannot read \`${file}\`: ${reason}`, { cause: error });
  }
}

/** Throws one TOLLGATE_INVALID_TABLE error that lists every issue, one per line. */
export function throwIssues(issues: readonly Issue[]): never {
  throw issuesError('TOLLGATE_INVALID_TABLE', issues, 'the tables');
}

/**
 * Compiles the shipped tables with overlay files applied in order (their own endpoints, or facts
 * the seeds leave "not shown"). Every problem of every file is reported at once.
 * @example
 * import { loadTables } from 'tollgate/tables';
 * const tables = loadTables(['examples/overlay-public-contents.yaml']);
 * tables.endpoints.length; // 535: the overlay changes one endpoint of the shipped tables
 */
export function loadTables(files: readonly string[] = []): PolicyTables {
  const issues: Issue[] = [];
  const overlays = files.flatMap((file) => {
    const loaded = loadTableText<RawPermissionsTable>(readTextFile(file), file, 'permissions');
    issues.push(...loaded.issues);
    return loaded.value === undefined ? [] : [{ file, value: loaded.value, locate: loaded.document.locate }];
  });
  if (issues.length > 0) throwIssues(issues);
  const compiled = compileTables({ ...shippedSources, overlays });
  if (compiled.tables === undefined) throwIssues(compiled.issues);
  return compiled.tables;
}

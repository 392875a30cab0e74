/** What the table compiler reads (raw values with where they came from) and how it reports problems there. */
import type { Issue, SourcePosition } from '../core/issue.js';
import type { RawPermissionsTable, RawScopesTable } from './tables.js';

/** A table value with where it came from; `locate` gives positions when the source has them. */
export interface TableSource<T> {
  readonly file: string;
  readonly value: T;
  readonly locate?: (path: readonly (string | number)[], options?: { key?: boolean }) => SourcePosition;
}

/** What `compileTables` reads. */
export interface TableSources {
  readonly permissions: TableSource<RawPermissionsTable>;
  readonly scopes: TableSource<RawScopesTable>;
  /** Applied in order: an entry replaces the fields it names of an existing endpoint, or adds one. */
  readonly overlays?: readonly TableSource<RawPermissionsTable>[];
}

/** Records a problem at `path` of `source` (at the key itself when `key`), positioned when it can be. */
export type Report = (
  source: TableSource<unknown>,
  path: (string | number)[],
  issue: Omit<Issue, 'source' | 'path'>,
  key?: boolean,
) => void;

/**
 * A reporter that appends to `issues`.
 * @example
 * import type { Issue } from 'tollgate/tables';
 * import { issueReporter } from './table-sources.js';
 * const issues: Issue[] = [];
 * const report = issueReporter(issues);
 * report({ file: 'overlay.yaml', value: {} }, ['endpoints'], { code: 'unknown_scope', message: 'unknown scope `admn:org`' });
 * issues[0]?.source; // { file: 'overlay.yaml', line: 0, column: 0 }: no positions without `locate`
 */
export function issueReporter(issues: Issue[]): Report {
  return (source, path, issue, key = false) => {
    issues.push({
      ...issue,
      path,
      source: source.locate?.(path, { key }) ?? { file: source.file, line: 0, column: 0 },
    });
  };
}

/** Table problems as values: what is wrong, where (file, line, column) and how to fix it. */

/** Where a problem is: 1-based line and column; 0 when the source has no positions. */
export interface SourcePosition {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** One problem in a table, overlay or token file. */
export interface Issue {
  /** Stable snake_case code, e.g. `unknown_permission`, `schema`, `yaml_syntax`. */
  readonly code: string;
  /** One line, lowercase start, naming the offending value in backticks. */
  readonly message: string;
  /** Path of the value inside the document, e.g. `['endpoints', 'GET /user', 'tokens', 0]`. */
  readonly path: readonly (string | number)[];
  readonly hint?: string;
  readonly source: SourcePosition;
}

/**
 * `file:line:col: message (hint)`, the form every tollgate error uses.
 * @example
 * import { formatIssue } from 'tollgate';
 * formatIssue(issue); // "data/permissions.yaml:12:7: unknown permission `isues` (did you mean `issues`?)"
 */
export function formatIssue(issue: Issue): string {
  const { file, line, column } = issue.source;
  const where = line > 0 ? `${file}:${line}:${column}` : file;
  return `${where}: ${issue.message}${issue.hint === undefined ? '' : ` (${issue.hint})`}`;
}

/** Table problems as values: what is wrong, where (file, line, column) and how to fix it. */
import { TollgateError, type TollgateErrorCode } from './errors.js';

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
 * import { formatIssue } from 'tollgate/tables';
 * const source = { file: 'data/permissions.yaml', line: 12, column: 7 };
 * const message = 'unknown permission `isues` (did you mean `issues`?)';
 * formatIssue({ code: 'unknown_permission', message, hint: 'permissions are listed in data/scopes.yaml', path: [], source });
 * // 'data/permissions.yaml:12:7: unknown permission `isues` (did you mean `issues`?) (permissions are listed in data/scopes.yaml)'
 */
export function formatIssue(issue: Issue): string {
  const { file, line, column } = issue.source;
  const where = line > 0 ? `${file}:${line}:${column}` : file;
  return `${where}: ${issue.message}${issue.hint === undefined ? '' : ` (${issue.hint})`}`;
}

/** Issues once each, in file order (line, then column), so a reader can walk the file top down. */
export function inFileOrder(issues: readonly Issue[]): Issue[] {
  const seen = new Set<string>();
  const unique = issues.filter((issue) => {
    const key = `${issue.source.file}:${issue.source.line}:${issue.source.column}:${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const fileRank = new Map<string, number>();
  for (const issue of unique)
    if (!fileRank.has(issue.source.file)) fileRank.set(issue.source.file, fileRank.size);
  return unique.sort(
    (a, b) =>
      fileRank.get(a.source.file)! - fileRank.get(b.source.file)! ||
      a.source.line - b.source.line ||
      a.source.column - b.source.column,
  );
}

/**
 * One TollgateError for a list of problems: the only one as the message, or a count as the message
 * and each problem once, in file order, as a detail line.
 */
export function issuesError(
  code: TollgateErrorCode,
  issues: readonly Issue[],
  subject: string,
): TollgateError {
  const lines = inFileOrder(issues).map(formatIssue);
  if (lines.length === 1) return new TollgateError(code, lines[0]!);
  return new TollgateError(code, `${lines.length} problems in ${subject}, one per line below`, {
    details: lines,
  });
}

/** Parses and validates one table, overlay or token text: every problem, with file, line and column. */
import type { Issue } from '../core/issue.js';
import { parseDataFile } from './json-document.js';
import { type SchemaName, validateDocument } from './schema-validator.js';
import type { SourceDocument } from './yaml-document.js';

/** A validated document, or the problems that stop it. */
export interface LoadedText<T> {
  readonly document: SourceDocument;
  /** Present only when `issues` is empty. */
  readonly value?: T;
  readonly issues: readonly Issue[];
}

/**
 * Parses `text` from `file` (a `.json` file with the JSON parser, anything else as YAML) and
 * validates it against `schema`.
 * @example
 * import type { RawPermissionsTable } from 'tollgate/policy';
 * import { loadTableText } from 'tollgate/tables';
 * const text = 'version: 1\nendpoints:\n  GET /x: {fine_grained: none}\n';
 * const { value, issues } = loadTableText<RawPermissionsTable>(text, 'overlay.yaml', 'permissions');
 * issues.length; // 0
 */
export function loadTableText<T>(text: string, file: string, schema: SchemaName): LoadedText<T> {
  const document = parseDataFile(text, file);
  const issues = validateDocument(document, schema);
  return issues.length > 0 ? { document, issues } : { document, value: document.value as T, issues };
}

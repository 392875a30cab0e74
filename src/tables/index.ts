/** tollgate/tables (Node only): tables, overlays and token files from disk, schema validation, positions, suggestions. */

export { escapeControl } from '../core/escape-control.js';
export { formatIssue, type Issue, inFileOrder, type SourcePosition } from '../core/issue.js';
export { closest, didYouMean } from '../core/suggest.js';
export { shippedSources } from '../policy/index.js';
export { type LoadedText, loadTableText } from './load-table-text.js';
export { loadTables, readTextFile } from './load-tables.js';
export { registerSchema, type SchemaName, validateDocument } from './schema-validator.js';
export { loadTokenFile } from './token-file.js';
export { parseTokenText } from './token-text.js';
export { parseSourceDocument, type SourceDocument } from './yaml-document.js';

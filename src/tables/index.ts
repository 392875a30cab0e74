/** Loading tables, overlays and token files: parsing, schema validation, positions, suggestions. */
export { formatIssue, type Issue, type SourcePosition } from '../core/issue.js';
export { closest, didYouMean } from '../core/suggest.js';
export { shippedSources, shippedTables } from '../policy/shipped-tables.js';
export { type LoadedText, loadTableText } from './load-table-text.js';
export { loadTablesWithOverlays, readTextFile } from './load-tables.js';
export { registerSchema, type SchemaName, validateDocument } from './schema-validator.js';
export { parseTokenText } from './token-text.js';
export { parseSourceDocument, type SourceDocument } from './yaml-document.js';

/** Loading tables, overlays and token files: parsing, schema validation, positions, suggestions. */
export { formatIssue, type Issue, type SourcePosition } from './issue.js';
export { type LoadedText, loadTableText } from './load-table-text.js';
export { loadTablesWithOverlays, readTextFile } from './load-tables.js';
export { registerSchema, type SchemaName, validateDocument } from './schema-validator.js';
export { loadShippedTables, shippedSources } from './shipped-tables.js';
export { closest, didYouMean } from './suggest.js';
export { parseTokenText } from './token-text.js';
export { parseSourceDocument, type SourceDocument } from './yaml-document.js';

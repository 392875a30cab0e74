/** tollgate/tables (Node only): tables, overlays and token files from disk, schema validation, issues with positions. */
export { formatIssue, type Issue, type SourcePosition } from './core/issue.js';
export { parseDataFile } from './tables/json-document.js';
export { type LoadedText, loadTableText } from './tables/load-table-text.js';
export { loadTables, readTextFile } from './tables/load-tables.js';
export { type SchemaName, validateDocument } from './tables/schema-validator.js';
export { loadTokenFile } from './tables/token-file.js';
export { parseTokenText } from './tables/token-text.js';
export { parseSourceDocument, type SourceDocument } from './tables/yaml-document.js';

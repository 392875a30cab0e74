/** Token files read from disk: a Token, or one TOLLGATE_INVALID_TOKEN error listing every problem. */
import { issuesError } from '../core/issue.js';
import type { Token } from '../core/token.js';
import { shippedTables } from '../policy/shipped-tables.js';
import type { PolicyTables } from '../policy/tables.js';
import { readTextFile } from './load-tables.js';
import { parseTokenText } from './token-text.js';

/**
 * Reads a token file (YAML or JSON: `kind`, `scopes` or `permissions`, `repositories`, identity
 * facts), checked against the tables' scope and permission catalogs.
 * @example
 * import { loadTokenFile } from 'tollgate/tables';
 * const token = loadTokenFile('examples/tokens/ci-reader.yaml');
 * token.kind; // 'fine-grained'
 */
export function loadTokenFile(file: string, tables: PolicyTables = shippedTables()): Token {
  const { token, issues } = parseTokenText(readTextFile(file), file, tables);
  if (token === undefined) throw issuesError('TOLLGATE_INVALID_TOKEN', issues, `\`${file}\``);
  return token;
}

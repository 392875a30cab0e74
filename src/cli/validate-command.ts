/** `tollgate validate FILE...`: checks tables, overlays and token files; every problem, one line each. */

import { escapeControl } from '../core/escape-control.js';
import { inFileOrder } from '../core/issue.js';
import { isTollgateError } from '../index.js';
import type { RawPermissionsTable, RawScopesTable } from '../policy.js';
import { compileTables, shippedSources, shippedTables } from '../policy.js';
import type { SchemaName } from '../tables.js';
import {
  formatIssue,
  type Issue,
  parseDataFile,
  parseTokenText,
  readTextFile,
  validateDocument,
} from '../tables.js';
import { parseCommandArgs } from './args.js';
import { type Command, EXIT, UsageError } from './io.js';
import { capPerFile } from './problem-list.js';

const HELP = `usage: tollgate validate FILE...

Validates tables, overlays, limits tables and token files (YAML or JSON), telling them apart by
their top-level keys, and prints every problem as file:line:col: message (hint), at most 20 for
one file (then how many more). A file that is not text, not a regular file or over 64 MiB is
refused in one line.

  --help, -h            this text

example:
  tollgate validate data/permissions.yaml examples/tokens/ci-reader.yaml

exit: 0 valid, 2 problems`;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What kind of file a document is, from its top-level keys. */
function detectKind(value: unknown): SchemaName | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if ('endpoints' in value) return 'permissions';
  if ('scopes' in value && 'permissions' in value) return 'scopes';
  if ('kind' in value) return 'token';
  if ('primary' in value || 'secondary' in value) return 'limits';
  return undefined;
}

function validateFile(file: string): { issues: Issue[]; summary: string } {
  const text = readTextFile(file);
  // A `.json` file is read with the JSON parser, anything else as YAML.
  const parsed = parseDataFile(text, file);
  if (parsed.issues.length > 0) return { issues: [...parsed.issues], summary: '' };
  const kind = detectKind(parsed.value);
  if (kind === undefined)
    return {
      issues: [
        {
          code: 'unknown_document',
          message: 'cannot tell what this file is',
          hint: 'expected a permissions table or overlay (`endpoints:`), a scopes table (`scopes:`), a limits table (`primary:`) or a token (`kind:`)',
          path: [],
          source: { file, line: 1, column: 1 },
        },
      ],
      summary: '',
    };
  if (kind === 'token') {
    const { issues } = parseTokenText(text, file, shippedTables());
    return { issues, summary: 'token' };
  }
  const schemaIssues = validateDocument(parsed, kind);
  if (kind === 'limits') return { issues: schemaIssues, summary: 'limits table' };
  if (schemaIssues.length > 0) return { issues: schemaIssues, summary: '' };
  const value = parsed.value as RawPermissionsTable & RawScopesTable;
  const source = { file, value, locate: parsed.locate };
  if (kind === 'scopes') {
    const { issues } = compileTables({ permissions: shippedSources.permissions, scopes: source });
    return { issues, summary: 'scopes table' };
  }
  // A full table has `rules`; anything else is an overlay over the shipped tables.
  const isFullTable = value.rules !== undefined;
  const compiled = compileTables(
    isFullTable
      ? { permissions: source, scopes: shippedSources.scopes }
      : { ...shippedSources, overlays: [source] },
  );
  return {
    issues: compiled.issues,
    summary: `${isFullTable ? 'permissions table' : 'overlay'}, ${plural(Object.keys(value.endpoints).length, 'endpoint')}`,
  };
}

export const validateCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs('validate', args, {
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout(`${HELP}\n`);
    return EXIT.ok;
  }
  if (positionals.length === 0) throw new UsageError('validate: expected at least one FILE');
  let problems = 0;
  for (const file of positionals) {
    let checked: { issues: Issue[]; summary: string };
    try {
      checked = validateFile(file);
    } catch (error) {
      // A file that cannot be read (missing, not a regular file, too large, not text): one line,
      // and the other files are still validated.
      if (!isTollgateError(error)) throw error;
      problems++;
      io.stderr(`${escapeControl(error.message)}\n`);
      continue;
    }
    const { issues, summary } = checked;
    problems += issues.length;
    const lines = inFileOrder(issues).map((issue) => ({ file: issue.source.file, text: formatIssue(issue) }));
    for (const line of capPerFile(lines)) io.stderr(`${escapeControl(line)}\n`);
    if (issues.length === 0) io.stdout(`${escapeControl(file)}: ok (${summary})\n`);
  }
  return problems === 0 ? EXIT.ok : EXIT.badInput;
};

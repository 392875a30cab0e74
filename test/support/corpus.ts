// The real-code corpus (test/fixtures/real/<owner>__<repo>/): each project's expectations.yaml,
// every call site counted by reading the code, loaded strictly and typed for the tests that hold
// `tollgate check` to it. The format is described in test/fixtures/real/README.md.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type {
  CallKind,
  CorpusProject,
  DocumentedPermission,
  ExpectedCall,
  GrantComparison,
  GrantEntry,
  ProjectKind,
  TokenKind,
  UncountedCall,
} from './corpus-types.js';

/** Where the corpus lives: one folder per project, named `<owner>__<repo>`. */
export const CORPUS_ROOT = join(import.meta.dirname, '..', 'fixtures', 'real');

const PROJECT_KINDS: readonly ProjectKind[] = [
  'javascript-action',
  'typescript-action',
  'probot-app',
  'library',
  'workflows',
];
const TOKEN_KINDS: readonly TokenKind[] = ['workflow', 'app-installation', 'classic', 'fine-grained'];
const CALL_KINDS: readonly CallKind[] = ['rest', 'graphql', 'unresolvable'];
const OPERATIONS = ['query', 'mutation', 'unknown'] as const;
const ROUTE = /^(GET|POST|PUT|PATCH|DELETE|HEAD) \/[^\s:?]*$/;

const TOP_FIELDS = [
  'project',
  'project_kind',
  'token_kind',
  'token_note',
  'documented_permissions',
  'documented_permissions_note',
  'calls',
  'not_counted',
  'grant',
  'notes',
];
const CALL_FIELDS = [
  'file',
  'line',
  'match',
  'style',
  'kind',
  'route',
  'routes',
  'operation',
  'reason',
  'defined_at',
  'also_at',
  'token_kind',
  'accept_unresolved',
  'note',
];
const DOC_FIELDS = ['file', 'quote', 'permissions', 'scopes', 'applies_to'];
const UNCOUNTED_FIELDS = ['file', 'lines', 'text', 'route'];
const GRANT_FIELDS = ['computed', 'matches_documented', 'differences'];
const ENTRY_FIELDS = ['job', 'token', 'grant', 'block'];

type Fields = Record<string, unknown>;

/** A malformed expectations file: one line naming the file, the place, what is wrong and the choices. */
function fail(where: string, message: string): never {
  throw new Error(`corpus: ${where}: ${message}`);
}

function record(value: unknown, where: string, allowed: readonly string[]): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(where, 'expected a mapping');
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) fail(where, `unknown field \`${key}\` (valid: ${allowed.join(', ')})`);
  }
  return value as Fields;
}

function text(fields: Fields, key: string, where: string): string {
  const value = fields[key];
  if (typeof value !== 'string' || value.trim() === '') fail(where, `\`${key}\` must be a non-empty string`);
  return value;
}

function optionalText(fields: Fields, key: string, where: string): string | undefined {
  return fields[key] === undefined ? undefined : text(fields, key, where);
}

function positive(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    fail(where, `\`${String(value)}\` is not a 1-based line number`);
  }
  return value;
}

function oneOf<T extends string>(value: unknown, choices: readonly T[], where: string): T {
  if (!choices.includes(value as T)) fail(where, `\`${String(value)}\` is not one of ${choices.join(', ')}`);
  return value as T;
}

function linesOf(value: unknown, where: string): number[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length === 0) fail(where, 'expected a non-empty list of line numbers');
  return value.map((line) => positive(line, where));
}

function routesOf(fields: Fields, where: string): string[] {
  if (fields.route !== undefined && fields.routes !== undefined)
    fail(where, 'give `route` or `routes`, not both');
  const list = fields.routes ?? (fields.route === undefined ? [] : [fields.route]);
  if (!Array.isArray(list) || list.length === 0) fail(where, 'a rest call needs `route` or `routes`');
  for (const route of list) {
    if (typeof route !== 'string' || !ROUTE.test(route)) {
      fail(where, `\`${String(route)}\` is not \`METHOD /path\` with {param} names`);
    }
  }
  return list as string[];
}

function callOf(value: unknown, where: string): ExpectedCall {
  const fields = record(value, where, CALL_FIELDS);
  const kind = oneOf(fields.kind, CALL_KINDS, `${where}.kind`);
  const call: ExpectedCall = {
    file: text(fields, 'file', where),
    line: positive(fields.line, `${where}.line`),
    match: text(fields, 'match', where),
    style: text(fields, 'style', where),
    kind,
    routes: kind === 'rest' ? routesOf(fields, where) : [],
    operation:
      fields.operation === undefined ? undefined : oneOf(fields.operation, OPERATIONS, `${where}.operation`),
    reason: optionalText(fields, 'reason', where),
    definedAt:
      fields.defined_at === undefined ? undefined : positive(fields.defined_at, `${where}.defined_at`),
    alsoAt: linesOf(fields.also_at, `${where}.also_at`),
    tokenKind: fields.token_kind === undefined ? undefined : oneOf(fields.token_kind, TOKEN_KINDS, where),
    acceptUnresolved: fields.accept_unresolved === true,
    note: optionalText(fields, 'note', where),
  };
  if (kind !== 'rest' && (fields.route !== undefined || fields.routes !== undefined)) {
    fail(where, `a ${kind} call has no route`);
  }
  if (kind === 'graphql' && call.operation === undefined) fail(where, 'a graphql call needs `operation`');
  if (kind === 'unresolvable' && call.reason === undefined)
    fail(where, 'an unresolvable call needs `reason`');
  return call;
}

function documentedOf(value: unknown, where: string): DocumentedPermission[] | 'none' {
  if (value === 'none documented') return 'none';
  if (!Array.isArray(value) || value.length === 0) {
    fail(where, 'expected a list of {file, quote, ...} or `none documented`');
  }
  return value.map((entry, i) => {
    const at = `${where}[${i}]`;
    const fields = record(entry, at, DOC_FIELDS);
    return {
      file: text(fields, 'file', at),
      quote: text(fields, 'quote', at),
      permissions: fields.permissions as Record<string, string> | undefined,
      scopes: fields.scopes as string[] | undefined,
      appliesTo: optionalText(fields, 'applies_to', at),
    };
  });
}

function uncountedOf(value: unknown, where: string): UncountedCall[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(where, 'expected a list');
  return value.map((entry, i) => {
    const at = `${where}[${i}]`;
    const fields = record(entry, at, UNCOUNTED_FIELDS);
    return {
      file: text(fields, 'file', at),
      lines:
        fields.lines === undefined ? fail(at, '`lines` is missing') : linesOf(fields.lines, `${at}.lines`),
      text: text(fields, 'text', at),
      route: text(fields, 'route', at),
    };
  });
}

function grantOf(value: unknown, where: string): GrantComparison {
  if (value === undefined) fail(where, '`grant` is missing');
  const fields = record(value, where, GRANT_FIELDS);
  if (!Array.isArray(fields.computed) || fields.computed.length === 0)
    fail(`${where}.computed`, 'expected a non-empty list of {job, token, grant, block}');
  const computed = fields.computed.map((entry, i): GrantEntry => {
    const at = `${where}.computed[${i}]`;
    const entryFields = record(entry, at, ENTRY_FIELDS);
    if (entryFields.job !== null) text(entryFields, 'job', at);
    const block = optionalText(entryFields, 'block', at);
    return {
      job: entryFields.job as string | null,
      token: text(entryFields, 'token', at),
      grant: text(entryFields, 'grant', at),
      ...(block === undefined ? {} : { block }),
    };
  });
  if (typeof fields.matches_documented !== 'boolean')
    fail(`${where}.matches_documented`, 'expected true or false');
  const differences = fields.differences ?? [];
  if (!Array.isArray(differences)) fail(`${where}.differences`, 'expected a list of one-line explanations');
  for (const line of differences) {
    if (typeof line !== 'string' || line.trim() === '' || line.includes('\n'))
      fail(`${where}.differences`, `\`${String(line)}\` is not a one-line explanation`);
  }
  if (fields.matches_documented === differences.length > 0)
    fail(where, 'a grant matches what is documented exactly when it lists no difference');
  return { computed, matchesDocumented: fields.matches_documented, differences: differences as string[] };
}

/**
 * Loads one project folder's expectations.yaml, strictly: an unknown field, a missing route or a
 * malformed line throws one line naming the file and the place.
 * @example
 * import { loadCorpusProject } from '../support/corpus.js';
 * const stale = loadCorpusProject('probot__stale');
 * stale.calls.filter((call) => call.kind === 'rest').length; // 10
 */
export function loadCorpusProject(id: string, root: string = CORPUS_ROOT): CorpusProject {
  const dir = join(root, id);
  const where = `${id}/expectations.yaml`;
  const path = join(dir, 'expectations.yaml');
  if (!existsSync(path)) fail(where, 'missing');
  let document: unknown;
  try {
    document = parse(readFileSync(path, 'utf8'));
  } catch (error) {
    fail(where, `invalid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const top = record(document, where, TOP_FIELDS);
  if (!Array.isArray(top.calls) || top.calls.length === 0) fail(where, '`calls` must be a non-empty list');
  const calls = top.calls.map((call, i) => callOf(call, `${where} calls[${i}]`));
  return {
    id,
    dir,
    project: text(top, 'project', where),
    projectKind: oneOf(top.project_kind, PROJECT_KINDS, `${where} project_kind`),
    tokenKind: oneOf(top.token_kind, TOKEN_KINDS, `${where} token_kind`),
    documentedPermissions: documentedOf(top.documented_permissions, `${where} documented_permissions`),
    calls,
    notCounted: uncountedOf(top.not_counted, `${where} not_counted`),
    callFiles: [...new Set(calls.map((call) => call.file))],
    grant: grantOf(top.grant, `${where} grant`),
  };
}

/**
 * Loads every project of the corpus, in folder-name order.
 * @example
 * import { loadCorpus } from '../support/corpus.js';
 * for (const project of loadCorpus()) console.log(project.project, project.calls.length);
 */
export function loadCorpus(root: string = CORPUS_ROOT): CorpusProject[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((id) => loadCorpusProject(id, root));
}

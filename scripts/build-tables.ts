// Validates data/*.yaml against data/schema/*.schema.json and the cross-table checks, then writes
// src/generated/<name>.json: the precompiled tables the package ships (no YAML on the request path).
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatIssue, type Issue } from '../src/core/issue.js';
import { compileTables } from '../src/policy/compile-tables.js';
import type { RawPermissionsTable, RawScopesTable } from '../src/policy/tables.js';
import { loadTableText } from '../src/tables/load-table-text.js';
import type { SchemaName } from '../src/tables/schema-validator.js';
import { writeOctokitRoutes } from './octokit-routes-table.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'src', 'generated');
const issues: Issue[] = [];
const values = new Map<string, unknown>();
const loaded = new Map<string, ReturnType<typeof loadTableText>>();

for (const name of ['permissions', 'scopes', 'limits', 'workflow-permissions'] as const) {
  const file = join(root, 'data', `${name}.yaml`);
  if (!existsSync(file)) continue;
  const result = loadTableText(readFileSync(file, 'utf8'), relative(root, file), name as SchemaName);
  issues.push(...result.issues);
  loaded.set(name, result);
  if (result.value !== undefined) values.set(name, result.value);
}

const permissions = loaded.get('permissions');
const scopes = loaded.get('scopes');
if (permissions?.value !== undefined && scopes?.value !== undefined) {
  const compiled = compileTables({
    permissions: {
      file: permissions.document.file,
      value: permissions.value as RawPermissionsTable,
      locate: permissions.document.locate,
    },
    scopes: {
      file: scopes.document.file,
      value: scopes.value as RawScopesTable,
      locate: scopes.document.locate,
    },
  });
  issues.push(...compiled.issues);
  // Every permission a workflow key grants is one of the catalog's, at a level it has.
  const workflow = loaded.get('workflow-permissions');
  const catalog = (scopes.value as RawScopesTable).permissions;
  const keys = (workflow?.value as { keys?: Record<string, { levels: string[]; grants?: string }> })?.keys;
  for (const [key, { levels, grants }] of Object.entries(keys ?? {})) {
    if (grants === undefined) continue;
    const known = catalog[grants];
    if (known === undefined || levels.some((level) => !(known.levels as string[]).includes(level)))
      issues.push({
        code: 'unknown_permission',
        message: `workflow key \`${key}\` grants \`${grants}\`, which the catalog lacks at levels ${levels.join(', ')}`,
        path: ['keys', key, 'grants'],
        source: workflow!.document.locate(['keys', key, 'grants']),
      });
  }
}

if (issues.length > 0) {
  for (const issue of issues) process.stderr.write(`${formatIssue(issue)}\n`);
  process.stderr.write(`tables: ${issues.length} problem(s); nothing written\n`);
  process.exit(2);
}
mkdirSync(out, { recursive: true });
for (const [name, value] of values) {
  // Write then rename, so a reader never sees half a file.
  const target = join(out, `${name}.json`);
  writeFileSync(`${target}.tmp`, `${JSON.stringify(value)}\n`);
  renameSync(`${target}.tmp`, target);
}
// The Octokit method table `tollgate check` reads (src/check/octokit-routes.ts), from the devDependency.
writeOctokitRoutes(out);

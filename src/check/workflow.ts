/** Workflow files: the built-in workflow token their `permissions:` grant, and the calls of their github-script steps. */
import { isMap, isScalar, LineCounter, parseDocument, type Scalar } from 'yaml';
import type { PolicyTables } from '../policy/index.js';
import { closest, type Issue } from '../tables/index.js';
import { type Call, inputError, type Origin, type SourceCalls, type WorkflowGrant } from './call.js';
import type { OctokitRoute } from './octokit-routes.js';
import { scanSource } from './scan-source.js';

const SHORTHANDS = ['read-all', 'write-all'] as const;

/**
 * The permissions a workflow states nowhere: not shown by the seeds. tollgate's choice, flagged as
 * uncertain in every report: `read-all` (every permission of the catalog at `read`).
 */
export const DEFAULT_WORKFLOW_PERMISSIONS = 'read-all';

/**
 * How the script's own lines and columns map onto the YAML file, or null where they do not line
 * up: a literal block (`|`) from the first line with text, indented as that line is; a
 * one-line plain or quoted scalar without escapes, from where its text starts.
 */
function scriptOffset(
  text: string,
  type: string | undefined,
  value: string,
  start: Origin,
): { line: number; column: number } | null {
  const lines = text.split('\n');
  if (type === 'BLOCK_LITERAL') {
    let line = start.line; // the `|` line; the text starts below it
    while (line < lines.length && lines[line]!.trim() === '') line++;
    const indent = lines[line]?.match(/^ */)?.[0].length ?? 0;
    // The scanner's line 1 is the value's first line, blank ones included.
    const leadingBlank = value.length - value.replace(/^\n+/, '').length;
    return { line: line - leadingBlank, column: indent };
  }
  if (value.includes('\n')) return null;
  const source = lines[start.line - 1]?.slice(start.column - 1) ?? '';
  if (type === 'PLAIN')
    return source.startsWith(value) ? { line: start.line - 1, column: start.column - 1 } : null;
  if ((type === 'QUOTE_DOUBLE' || type === 'QUOTE_SINGLE') && source.slice(1).startsWith(value))
    return { line: start.line - 1, column: start.column };
  return null;
}

/** True for a path under a `workflows` folder with a YAML extension. */
export function isWorkflowPath(file: string): boolean {
  return /(^|[\\/])workflows[\\/][^\\/]+\.ya?ml$/.test(file);
}

/**
 * Reads a workflow: per job, the workflow token its `permissions:` grant (the job's over the
 * workflow's; `read-all`, `write-all`, `{}`, or `scope: read|write|none`; absent: the default
 * above), and the calls of each `actions/github-script` step's inline `script`.
 * @example
 * import { octokitRoutes } from './octokit-routes.js';
 * import { readWorkflow } from './workflow.js';
 * import { shippedTables } from 'tollgate';
 * const text = 'on: push\npermissions: { issues: write }\njobs:\n  triage:\n    runs-on: x\n    steps:\n      - uses: actions/github-script@v7\n        with:\n          script: |\n            await github.rest.issues.createComment({ owner, repo, issue_number: 1, body: "hi" });\n';
 * const { calls, grants } = readWorkflow(text, '.service/workflows/triage.yml', shippedTables(), await octokitRoutes());
 * grants[0]?.permissions; // { issues: 'write' }
 * calls[0]?.origin.line; // 10
 */
export function readWorkflow(
  text: string,
  file: string,
  tables: PolicyTables,
  routes: ReadonlyMap<string, OctokitRoute>,
): SourceCalls {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true });
  const at = (offset: number | undefined): Origin => {
    const { line, col } = lineCounter.linePos(offset ?? 0);
    return { file, line, column: col };
  };
  if (document.errors.length > 0)
    throw inputError(
      document.errors.map((error) => ({
        code: 'yaml_syntax',
        message: `invalid YAML: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
        path: [],
        source: at(error.pos[0]),
      })),
    );
  const slugs = [...tables.permissions.keys()];
  const issues: Issue[] = [];
  const rangeOf = (path: (string | number)[]) =>
    (document.getIn(path, true) as { range?: [number, number, number] } | undefined)?.range?.[0];

  function permissionsAt(path: (string | number)[]): Record<string, 'read' | 'write'> | undefined {
    const value = document.getIn(path) as unknown;
    if (value === undefined) return undefined;
    const node = document.getIn(path, true);
    // `write-all` grants each permission its highest level (`metadata` has only `read`).
    const all = (level: 'read' | 'write') =>
      Object.fromEntries(
        slugs.map((slug) => [slug, tables.permissions.get(slug)!.levels.includes(level) ? level : 'read']),
      );
    if (value === 'read-all') return all('read');
    if (value === 'write-all') return all('write');
    if (!isMap(node)) {
      issues.push({
        code: 'bad_permissions',
        message: `\`permissions: ${String(value)}\` is neither a shorthand nor a map`,
        hint: `valid: ${SHORTHANDS.join(', ')}, {} or \`name: read|write|none\``,
        path,
        source: at(rangeOf(path)),
      });
      return {};
    }
    const granted: Record<string, 'read' | 'write'> = {};
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String((pair.key as Scalar).value) : '';
      const level = isScalar(pair.value) ? String((pair.value as Scalar).value) : '';
      const source = at((pair.key as { range?: [number, number, number] }).range?.[0]);
      const slug = key.replaceAll('-', '_');
      if (!tables.permissions.has(slug)) {
        const near = closest(slug, slugs);
        issues.push({
          code: 'unknown_permission',
          message: `unknown permission \`${key}\`${near === undefined ? '' : ` (did you mean \`${near.replaceAll('_', '-')}\`?)`}`,
          hint: `valid: ${slugs.map((s) => s.replaceAll('_', '-')).join(', ')}`,
          path: [...path, key],
          source,
        });
        continue;
      }
      if (level === 'none') continue;
      const valid = tables.permissions.get(slug)!.levels as readonly string[];
      if (!valid.includes(level)) {
        issues.push({
          code: 'unknown_level',
          message: `permission \`${key}\` has no level \`${level}\``,
          hint: `valid levels: ${[...valid, 'none'].join(', ')}`,
          path: [...path, key],
          source,
        });
        continue;
      }
      granted[slug] = level as 'read' | 'write';
    }
    return granted;
  }

  const jobs = document.getIn(['jobs'], true);
  if (!isMap(jobs) || jobs.items.length === 0) {
    throw inputError([
      {
        code: 'no_jobs',
        message: 'a workflow needs `jobs:` with at least one job',
        path: ['jobs'],
        source: at(rangeOf(['jobs']) ?? 0),
      },
    ]);
  }
  const workflowLevel = permissionsAt(['permissions']);
  const grants: WorkflowGrant[] = [];
  const calls: Call[] = [];
  for (const pair of jobs.items) {
    const job = isScalar(pair.key) ? String((pair.key as Scalar).value) : '';
    const jobLevel = permissionsAt(['jobs', job, 'permissions']);
    const permissions = jobLevel ?? workflowLevel;
    const defaulted = permissions === undefined;
    grants.push({
      file,
      job,
      permissions: permissions ?? Object.fromEntries(slugs.map((slug) => [slug, 'read' as const])),
      origin: at(
        rangeOf(['jobs', job, 'permissions']) ??
          rangeOf(['permissions']) ??
          (pair.key as { range?: [number, number, number] }).range?.[0],
      ),
      defaulted,
    });
    const steps = document.getIn(['jobs', job, 'steps']);
    if (!Array.isArray((steps as { items?: unknown[] } | undefined)?.items ?? steps)) continue;
    const count = (document.getIn(['jobs', job, 'steps'], true) as { items: unknown[] }).items.length;
    for (let i = 0; i < count; i++) {
      const uses = document.getIn(['jobs', job, 'steps', i, 'uses']);
      if (typeof uses !== 'string' || !uses.startsWith('actions/github-script')) continue;
      const scriptNode = document.getIn(['jobs', job, 'steps', i, 'with', 'script'], true) as
        | (Scalar & { range?: [number, number, number]; type?: string })
        | undefined;
      if (scriptNode === undefined || typeof scriptNode.value !== 'string') continue;
      const start = at(scriptNode.range?.[0]);
      const offset = scriptOffset(text, scriptNode.type, scriptNode.value, start);
      for (const call of scanSource(scriptNode.value, file, routes, offset ?? { line: 0, column: 0 }))
        calls.push({
          ...call,
          // Where the script's text cannot be mapped line for line (folded, or quoted over several
          // lines, escapes), each call is placed at the script itself.
          ...(offset === null ? { origin: start } : {}),
          via: `${job}: ${call.via ?? 'github-script'}`,
        });
    }
  }
  if (issues.length > 0) throw inputError(issues);
  return { calls, grants };
}

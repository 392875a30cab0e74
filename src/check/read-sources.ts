/** Reads every SOURCE of `tollgate check`: calls files, OpenAPI documents, source code, workflows, composite actions. */
import { readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { isTollgateError } from '../core/errors.js';
import type { Issue } from '../core/issue.js';
import type { PolicyTables } from '../policy/tables.js';
import { readTextFile } from '../tables/load-tables.js';
import { type Call, inputError, type SourceCalls, type WorkflowGrant } from './call.js';
import { readListCalls, readTextCalls } from './calls-file.js';
import { octokitRoutes } from './octokit-routes.js';
import { isOpenApi, readOpenApiCalls } from './openapi.js';
import { scanSource } from './scan-source.js';
import { isActionPath, isWorkflowPath, readWorkflow } from './workflow.js';

const CODE = new Set(['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx']);
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'dist', 'coverage']);

/** Every source file under `folder`, in name order; a loop over a stack, never recursion. */
function codeFiles(folder: string): string[] {
  const found: string[] = [];
  const pending = [folder];
  while (pending.length > 0) {
    const current = pending.pop()!;
    const entries = readdirSync(current, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    const folders: string[] = [];
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) folders.push(path);
      } else if (CODE.has(extname(entry.name)) && !entry.name.endsWith('.d.ts')) found.push(path);
      else if (isWorkflowPath(path) || isActionPath(path)) found.push(path);
    }
    pending.push(...folders.reverse());
  }
  return found;
}

/** What the sources yield, and the problems of those that could not be read (the rest are still read). */
export interface ReadSources extends SourceCalls {
  /** One per source that could not be read: its file, line, column and why. */
  readonly problems: readonly Issue[];
}

async function readOne(file: string, tables: PolicyTables, inFolder: boolean): Promise<SourceCalls> {
  const text = readTextFile(file);
  const extension = extname(file).toLowerCase();
  if (isWorkflowPath(file) || isActionPath(file))
    // Found in a folder, a JavaScript or Docker action's action.yml is passed over: its code is
    // in the folder (a repository's root holds both; refusing it failed every such run).
    return readWorkflow(text, file, tables, await octokitRoutes(), inFolder);
  if (CODE.has(extension)) return { calls: scanSource(text, file, await octokitRoutes()), grants: [] };
  if (extension === '.txt') return { calls: readTextCalls(text, file), grants: [] };
  if (['.yaml', '.yml', '.json'].includes(extension))
    return {
      calls: isOpenApi(openApiField(text)) ? readOpenApiCalls(text, file) : readListCalls(text, file),
      grants: [],
    };
  throw inputError([
    {
      code: 'unknown_source',
      message: `cannot tell what \`${file}\` is`,
      hint: 'sources: calls (.yaml, .json, .txt), OpenAPI 3 (.yaml, .json), code (.js, .ts, ...), workflows (workflows/*.yml), composite actions (action.yml), or a folder',
      path: [],
      source: { file, line: 0, column: 0 },
    },
  ]);
}

/**
 * The calls of every source, and the workflow jobs among them. A folder is scanned for code,
 * workflow files under a `workflows` folder and composite actions' `action.yml` files (another
 * action's is passed over: its code is scanned); `node_modules`, `.git`, `dist` and `coverage`
 * are not entered. A source that cannot be read
 * (missing, not parsable) is a problem with its file, line and column; the others are still read.
 * @example
 * import { readSources } from './read-sources.js';
 * import { shippedTables } from 'tollgate';
 * const { calls, problems } = await readSources(['examples/ci/calls.yaml', 'missing.yaml'], shippedTables());
 * calls.length > 0; // true
 * problems[0]?.message; // 'no file or folder `missing.yaml`'
 */
export async function readSources(sources: readonly string[], tables: PolicyTables): Promise<ReadSources> {
  const calls: Call[] = [];
  const grants: WorkflowGrant[] = [];
  const problems: Issue[] = [];
  for (const source of sources) {
    let files: string[];
    let inFolder = false;
    try {
      inFolder = statSync(source).isDirectory();
      files = inFolder ? codeFiles(source) : [source];
    } catch {
      problems.push({
        code: 'no_source',
        message: `no file or folder \`${source}\``,
        path: [],
        source: { file: source, line: 0, column: 0 },
      });
      continue;
    }
    for (const file of files) {
      try {
        const found = await readOne(file, tables, inFolder);
        // One by one: a spread of 200,000 calls (one large file) would overflow the stack.
        for (const call of found.calls) calls.push(call);
        grants.push(...found.grants);
      } catch (error) {
        if (!isTollgateError(error)) {
          // A fault of tollgate's own on this one file: reported as such, the other files still read.
          const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
          problems.push({
            code: 'internal_error',
            message: `tollgate could not read this file (internal error: ${reason.split('\n')[0]}); please report it`,
            path: [],
            source: { file, line: 0, column: 0 },
          });
          continue;
        }
        // Each line of the error is one problem: `file:line:col: message (hint)`.
        for (const line of error.details.length > 0 ? error.details : [error.message])
          problems.push(problemOf(line, file));
      }
    }
  }
  return { calls, grants, problems };
}

function problemOf(line: string, file: string): Issue {
  const match = /^(.*?):(\d+):(\d+): ([\s\S]*)$/.exec(line);
  if (match === null) {
    const message = line.startsWith(`${file}: `) ? line.slice(file.length + 2) : line;
    return { code: 'unreadable_source', message, path: [], source: { file, line: 0, column: 0 } };
  }
  return {
    code: 'unreadable_source',
    message: match[4]!,
    path: [],
    source: { file: match[1]!, line: Number(match[2]), column: Number(match[3]) },
  };
}

// The `openapi` field of a document, read leniently (the real reader reports any syntax problem).
function openApiField(text: string): unknown {
  const version = /(?:^|[{,])\s*["']?openapi["']?\s*:\s*["']?([0-9.]+)/m.exec(text)?.[1];
  return { openapi: version };
}

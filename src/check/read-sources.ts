/** Reads every SOURCE of `tollgate check`: calls files, OpenAPI documents, source code, workflows. */
import { readdirSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import type { PolicyTables } from '../policy/index.js';
import { readTextFile } from '../tables/index.js';
import { type Call, inputError, type SourceCalls, type WorkflowGrant } from './call.js';
import { readListCalls, readTextCalls } from './calls-file.js';
import { octokitRoutes } from './octokit-routes.js';
import { isOpenApi, readOpenApiCalls } from './openapi.js';
import { scanSource } from './scan-source.js';
import { isWorkflowPath, readWorkflow } from './workflow.js';

const CODE = new Set(['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx']);
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'dist', 'coverage']);

function codeFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  )) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) found.push(...codeFiles(path));
    } else if (CODE.has(extname(entry.name)) && !entry.name.endsWith('.d.ts')) found.push(path);
    else if (isWorkflowPath(path)) found.push(path);
  }
  return found;
}

/**
 * The calls of every source, and the workflow tokens of any workflow among them. A folder is
 * scanned for code (and workflow files under a `workflows` folder). Throws TOLLGATE_INVALID_INPUT
 * naming the file (and line and column) of the first source that cannot be read.
 * @example
 * import { readSources } from './read-sources.js';
 * import { shippedTables } from 'tollgate';
 * const { calls } = await readSources(['examples/ci/calls.yaml'], shippedTables());
 * calls.length > 0; // true
 */
export async function readSources(sources: readonly string[], tables: PolicyTables): Promise<SourceCalls> {
  const calls: Call[] = [];
  const grants: WorkflowGrant[] = [];
  for (const source of sources) {
    let stats: ReturnType<typeof statSync>;
    try {
      stats = statSync(source);
    } catch {
      throw inputError([
        {
          code: 'no_source',
          message: `no file or folder \`${source}\``,
          path: [],
          source: { file: source, line: 0, column: 0 },
        },
      ]);
    }
    const files = stats.isDirectory() ? codeFiles(source) : [source];
    for (const file of files) {
      const shown = stats.isDirectory() ? join(source, relative(source, file)) : file;
      const text = readTextFile(file);
      const extension = extname(file).toLowerCase();
      if (isWorkflowPath(file)) {
        const found = readWorkflow(text, shown, tables, await octokitRoutes());
        calls.push(...found.calls);
        grants.push(...found.grants);
      } else if (CODE.has(extension)) {
        // One by one: a spread of 200,000 calls would overflow the stack.
        for (const call of scanSource(text, shown, await octokitRoutes())) calls.push(call);
      } else if (extension === '.txt') calls.push(...readTextCalls(text, shown));
      else if (['.yaml', '.yml', '.json'].includes(extension)) {
        calls.push(
          ...(isOpenApi(openApiField(text)) ? readOpenApiCalls(text, shown) : readListCalls(text, shown)),
        );
      } else
        throw inputError([
          {
            code: 'unknown_source',
            message: `cannot tell what \`${file}\` is`,
            hint: 'sources: calls (.yaml, .json, .txt), OpenAPI 3 (.yaml, .json), code (.js, .ts, ...), workflows (workflows/*.yml), or a folder',
            path: [],
            source: { file: shown, line: 0, column: 0 },
          },
        ]);
    }
  }
  return { calls, grants };
}

// The `openapi` field of a document, read leniently (the real reader reports any syntax problem).
function openApiField(text: string): unknown {
  const version = /(?:^|[{,])\s*["']?openapi["']?\s*:\s*["']?([0-9.]+)/m.exec(text)?.[1];
  return { openapi: version };
}

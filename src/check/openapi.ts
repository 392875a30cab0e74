/** OpenAPI 3.x documents: every operation is a call; the servers' base path is stripped. */
import { HTTP_METHODS } from '../core/http-method.js';
import { parseSource } from '../tables/json-document.js';
import { type Call, inputError } from './call.js';

const OPERATIONS = HTTP_METHODS.map((method) => method.toLowerCase());

/** True for a parsed value that looks like an OpenAPI 3 document. */
export function isOpenApi(value: unknown): boolean {
  const version = (value as { openapi?: unknown } | null)?.openapi;
  return typeof version === 'string' && version.startsWith('3.');
}

// `https://api.example.com/v3` or `/v3` -> `/v3`; variables in the URL keep their defaults.
function basePath(server: { url?: unknown; variables?: Record<string, { default?: unknown }> }): string {
  let url = typeof server.url === 'string' ? server.url : '';
  for (const [name, variable] of Object.entries(server.variables ?? {}))
    url = url.replaceAll(`{${name}}`, String(variable.default ?? ''));
  const path = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/.*)?$/i.exec(url)?.[1] ?? (url.startsWith('/') ? url : '');
  return path.replace(/\/+$/, '');
}

/**
 * Reads the operations of an OpenAPI 3.x document (YAML or JSON text).
 * @example
 * import { readOpenApiCalls } from './openapi.js';
 * const text = 'openapi: 3.0.3\nservers: [{ url: "https://api.example.com/v3" }]\npaths:\n  /v3/notifications:\n    get: {}\n';
 * readOpenApiCalls(text, 'api.yaml').map((c) => `${c.method} ${c.path}`); // ['GET /notifications']
 */
export function readOpenApiCalls(text: string, file: string): Call[] {
  const doc = parseSource(text, file, { maxDepth: 3 });
  if (doc.issues.length > 0) throw inputError(doc.issues);
  const api = doc.value as { paths?: unknown; servers?: unknown };
  if (!isOpenApi(api) || api.paths === null || typeof api.paths !== 'object')
    throw inputError([
      {
        code: 'not_openapi',
        message: 'not an OpenAPI 3.x document with `paths`',
        hint: 'expected `openapi: 3.x` and a `paths` object',
        path: [],
        source: doc.locate([]),
      },
    ]);
  const bases = (Array.isArray(api.servers) ? api.servers : []).map(basePath).filter((base) => base !== '');
  const calls: Call[] = [];
  for (const [template, item] of Object.entries(api.paths as Record<string, unknown>)) {
    if (item === null || typeof item !== 'object') continue;
    const base = bases.find((prefix) => template.startsWith(`${prefix}/`));
    const path = base === undefined ? template : template.slice(base.length);
    for (const operation of Object.keys(item))
      if (OPERATIONS.includes(operation))
        calls.push({
          method: operation.toUpperCase(),
          path,
          origin: doc.locate(['paths', template, operation], { key: true }),
          resolved: true,
          via: `${operation.toUpperCase()} ${template}`,
        });
  }
  return calls;
}

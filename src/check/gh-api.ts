/** `run:` steps that call `gh api`: each call read like a `request('METHOD /route')`. */
import type { Call, Origin } from './call.js';

// gh's own placeholders (`{owner}`, `{repo}`, `{branch}`) stay; a shell or workflow variable
// becomes a parameter: `repos/$REPO/issues` -> `/repos/{REPO}/issues`.
function routeOf(endpoint: string): string {
  const path = endpoint
    .replace(/^https?:\/\/[^/]+/, '')
    .replace(/\?.*$/, '')
    .replace(/^\/?/, '/');
  return path
    .split('/')
    .map((segment) => {
      const variable = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(segment)?.[1];
      if (variable !== undefined) return `{${variable.toLowerCase()}}`;
      if (/\$|_{3,}/.test(segment)) return '{param}';
      return segment;
    })
    .join('/');
}

// Shell words of one command line, quotes removed (enough for `gh api` arguments).
function words(line: string): string[] {
  const found: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const match of line.matchAll(pattern)) found.push(match[1] ?? match[2] ?? match[3] ?? '');
  return found;
}

const FIELD_FLAGS = new Set(['-f', '-F', '--field', '--raw-field', '--input']);

/**
 * The `gh api` calls of a `run:` script whose first line sits at `start` (line 1 of the script is
 * `start.line`): the method from `-X`/`--method` (else POST when fields are sent, GET otherwise,
 * as gh does), `graphql` as a GraphQL call. Lines continued with `\` are joined.
 * @example
 * import { ghApiCalls } from './gh-api.js';
 * ghApiCalls('gh api repos/{owner}/{repo}/issues -f title=x', { file: 'ci.yml', line: 10, column: 11 }).map((c) => `${c.method} ${c.path}`);
 * // ['POST /repos/{owner}/{repo}/issues']
 */
export function ghApiCalls(script: string, start: Origin): Call[] {
  const calls: Call[] = [];
  const lines = script.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    const first = i;
    while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1)} ${lines[++i]}`;
    const at = line.search(/(^|[\s;&|(`$])gh\s+api\s/);
    if (at < 0) continue;
    const column = line.indexOf('gh', at);
    const args = words(line.slice(column)).slice(2);
    let method: string | undefined;
    let endpoint: string | undefined;
    let fields = false;
    let query = '';
    for (let j = 0; j < args.length; j++) {
      const arg = args[j]!;
      if (arg === '-X' || arg === '--method') method = args[++j];
      else if (arg.startsWith('--method=')) method = arg.slice(9);
      else if (FIELD_FLAGS.has(arg)) {
        fields = true;
        const value = args[++j] ?? '';
        if (value.startsWith('query=')) query = value;
      } else if (/^(-H|--header|-q|--jq|-t|--template|--cache|-p|--preview|--hostname)$/.test(arg)) j++;
      else if (/^[;&|]/.test(arg)) break;
      else if (!arg.startsWith('-') && endpoint === undefined) endpoint = arg;
    }
    if (endpoint === undefined) continue;
    const origin = { file: start.file, line: start.line + first, column: start.column + column };
    const via = `gh api ${endpoint}`;
    if (endpoint === 'graphql') {
      const mutation = /\bmutation\b/.test(query);
      calls.push({
        method: 'POST',
        path: '/graphql',
        origin,
        resolved: true,
        via,
        graphql: {
          operation: query === '' ? 'unknown' : mutation ? 'mutation' : 'query',
          cost: mutation ? 5 : 1,
        },
      });
      continue;
    }
    calls.push({
      method: (method ?? (fields ? 'POST' : 'GET')).toUpperCase(),
      path: routeOf(endpoint),
      origin,
      resolved: true,
      via,
    });
  }
  return calls;
}

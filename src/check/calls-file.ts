/** Calls files: a YAML or JSON list of calls, or plain text with one `METHOD /path` a line. */
import { HTTP_METHODS } from '../core/http-method.js';
import type { Issue } from '../core/issue.js';
import { closest } from '../core/suggest.js';
import { parseSource } from '../tables/json-document.js';
import { type Call, inputError } from './call.js';

const VISIBILITIES = ['public', 'private'] as const;

function methodIssue(method: string, source: Issue['source']): Issue | null {
  if ((HTTP_METHODS as readonly string[]).includes(method.toUpperCase())) return null;
  const near = closest(method.toUpperCase(), HTTP_METHODS);
  return {
    code: 'unknown_method',
    message: `unknown method \`${method}\`${near === undefined ? '' : ` (did you mean \`${near}\`?)`}`,
    hint: `valid methods: ${HTTP_METHODS.join(', ')}`,
    path: [],
    source,
  };
}

function pathIssue(path: string, source: Issue['source']): Issue | null {
  if (path.startsWith('/')) return null;
  return { code: 'bad_path', message: `path \`${path}\` does not start with \`/\``, path: [], source };
}

/**
 * The call `method path [visibility]` found at `source`, or the problems that make it none.
 * `visibilitySource` is where a visibility given apart (a YAML field) sits.
 */
function callOf(
  method: string,
  path: string,
  visibility: unknown,
  source: Issue['source'],
  visibilitySource: Issue['source'] = source,
): { call: Call } | { problems: Issue[] } {
  const problems = [methodIssue(method, source), pathIssue(path, source)].filter((p) => p !== null);
  if (visibility !== undefined && !(VISIBILITIES as readonly unknown[]).includes(visibility))
    problems.push({
      code: 'bad_visibility',
      message: `unknown visibility \`${String(visibility)}\``,
      hint: 'valid: public, private',
      path: [],
      source: visibilitySource,
    });
  if (problems.length > 0) return { problems };
  return {
    call: {
      method: method.toUpperCase(),
      path,
      ...(visibility === undefined ? {} : { visibility: visibility as 'public' | 'private' }),
      origin: source,
      resolved: true,
    },
  };
}

/**
 * Reads plain text: `METHOD /path` a line, optionally followed by `public` or `private`; blank
 * lines and `#` comments are skipped.
 * @example
 * import { readTextCalls } from './calls-file.js';
 * readTextCalls('GET /notifications\n# a comment\nPOST /repos/{owner}/{repo}/issues private\n', 'calls.txt').length; // 2
 */
export function readTextCalls(text: string, file: string): Call[] {
  const calls: Call[] = [];
  const issues: Issue[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') return;
    const column = raw.indexOf(line[0]!) + 1;
    const source = { file, line: index + 1, column };
    const [method = '', path = '', visibility, ...rest] = line.split(/\s+/);
    if (path === '') {
      issues.push({ code: 'no_path', message: `\`${line}\` is not \`METHOD /path\``, path: [], source });
      return;
    }
    if (rest.length > 0) {
      issues.push({
        code: 'extra_text',
        message: `unexpected \`${rest.join(' ')}\` after the call`,
        path: [],
        source,
      });
      return;
    }
    const found = callOf(method, path, visibility, source);
    if ('call' in found) calls.push(found.call);
    else issues.push(...found.problems);
  });
  if (issues.length > 0) throw inputError(issues);
  return calls;
}

/**
 * Reads a YAML or JSON list whose items are `"METHOD /path"` strings or `{method, path, visibility}` objects.
 * @example
 * import { readListCalls } from './calls-file.js';
 * readListCalls('- GET /notifications\n- { method: PUT, path: /notifications }\n', 'calls.yaml').map((c) => c.method); // ['GET', 'PUT']
 */
export function readListCalls(text: string, file: string): Call[] {
  const doc = parseSource(text, file, { maxDepth: 3 });
  if (doc.issues.length > 0) throw inputError(doc.issues);
  const list = (doc.value as { calls?: unknown } | null)?.calls ?? doc.value;
  const base = Array.isArray(doc.value) ? [] : ['calls'];
  if (!Array.isArray(list)) {
    // A workflow outside a `workflows/` folder is read as a calls file: say where workflows are read.
    const value = doc.value as Record<string, unknown> | null;
    const workflow = typeof value === 'object' && value !== null && 'jobs' in value && 'on' in value;
    throw inputError([
      {
        code: 'not_a_list',
        message: 'a calls file is a list of calls (or `calls:` with one)',
        hint: workflow
          ? 'this looks like a workflow: workflows are read from a `workflows/` folder (as `.github/workflows/`), and composite actions from `action.yml`'
          : 'items: `GET /path` or `{ method, path, visibility }`',
        path: [],
        source: doc.locate([]),
      },
    ]);
  }
  const calls: Call[] = [];
  const issues: Issue[] = [];
  list.forEach((item: unknown, i) => {
    const source = doc.locate([...base, i]);
    let method: unknown;
    let path: unknown;
    let visibility: unknown;
    if (typeof item === 'string') {
      const words = item.trim().split(/\s+/);
      [method, path] = words;
      if (words.length > 3 || (words[2] !== undefined && words[2] !== 'public' && words[2] !== 'private')) {
        issues.push({
          code: 'bad_call',
          message: `\`${item}\` is not \`METHOD /path [public|private]\``,
          path: [...base, i],
          source,
        });
        return;
      }
      visibility = words[2];
    } else if (item !== null && typeof item === 'object')
      ({ method, path, visibility } = item as Record<string, unknown>);
    if (typeof method !== 'string' || typeof path !== 'string') {
      issues.push({
        code: 'bad_call',
        message: 'a call is `METHOD /path` or `{ method, path, visibility }`',
        path: [...base, i],
        source,
      });
      return;
    }
    const found = callOf(method, path, visibility, source, doc.locate([...base, i, 'visibility']));
    if ('call' in found) calls.push(found.call);
    else issues.push(...found.problems);
  });
  if (issues.length > 0) throw inputError(issues);
  return calls;
}

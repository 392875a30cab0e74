/** Calls found in JavaScript and TypeScript, parsed with @babel/parser: Octokit's `request`, `paginate` and REST methods. */
import type { ParserPlugin } from '@babel/parser';
import { closest, type Issue } from '../tables/index.js';
import { parse } from './babel-parser.js';
import { type Call, inputError, type Origin } from './call.js';
import type { OctokitRoute } from './octokit-routes.js';

/** Where a piece of code sits in its file: an inline script of a workflow starts `line` lines further down, each line indented `column` more. */
export interface CodeOffset {
  readonly line: number;
  readonly column: number;
}

type Node = { type: string; loc?: { start: { line: number; column: number } } } & Record<string, unknown>;

// `GET /path`, also with a full URL (`POST https://uploads.example.com/path`): the path is the route.
const ROUTE = /^([A-Za-z]+)\s+(?:[a-z][a-z0-9+.-]*:\/\/[^/\s]+)?(\/\S*)$/i;

function pluginsFor(file: string): ParserPlugin[] {
  // Decorators as TypeScript projects write them (`@Injectable()`), in TypeScript and JavaScript.
  if (/\.[mc]?ts$/.test(file)) return ['typescript', 'decorators-legacy'];
  if (file.endsWith('.tsx')) return ['typescript', 'jsx', 'decorators-legacy'];
  return ['jsx', 'decorators-legacy'];
}

/** `a.b.c` of a member chain (`this` as `this`), or null when a link is computed or not a name. */
function chain(node: Node | undefined): string[] | null {
  if (node === undefined) return null;
  if (node.type === 'Identifier') return [node.name as string];
  if (node.type === 'ThisExpression') return ['this'];
  if (node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression') {
    if (node.computed === true) return null;
    const head = chain(node.object as Node);
    const property = node.property as Node;
    if (head === null || property.type !== 'Identifier') return null;
    return [...head, property.name as string];
  }
  // Type-only wrappers: `(octokit as Octokit).rest...`, `octokit!`, `<Octokit>octokit`, `(octokit)`.
  if (
    node.type === 'TSNonNullExpression' ||
    node.type === 'TSAsExpression' ||
    node.type === 'TSSatisfiesExpression' ||
    node.type === 'TSTypeAssertion' ||
    node.type === 'ParenthesizedExpression'
  )
    return chain(node.expression as Node);
  return null;
}

/** The `namespace.method` of a chain `<client>.rest.<namespace>.<method>`, if it is one. */
function restMethod(links: readonly string[] | null): string | null {
  if (links === null) return null;
  const rest = links.lastIndexOf('rest');
  if (rest < 1 || rest !== links.length - 3) return null;
  return `${links[rest + 1]}.${links[rest + 2]}`;
}

/** A string the code spells out whole: a literal, or a template literal without holes. */
function literal(node: Node | undefined): string | null {
  if (node === undefined) return null;
  if (node.type === 'StringLiteral') return node.value as string;
  if (node.type === 'TemplateLiteral' && (node.expressions as unknown[]).length === 0)
    return ((node.quasis as { value: { cooked: string } }[])[0]?.value.cooked ?? '') as string;
  return null;
}

/**
 * Scans one file's code for the calls an Octokit client makes:
 * - `x.request('GET /path', ...)` and `x.paginate('GET /path', ...)` with a literal route
 *   (a route without a method is a GET, as Octokit reads it);
 * - `x.rest.<namespace>.<method>(...)`, whatever the client is called (`octokit`, `github`,
 *   `this.client`, `context.octokit`, a client from `getOctokit(token)`);
 * - a method referenced rather than called: `x.paginate(x.rest.pulls.listFiles, ...)`, and
 *   `x.rest.issues.listEvents.endpoint.merge(...)` (passed on to `paginate`);
 * - `request` or `paginate` with a route that is not a literal: an unresolved call.
 * Throws TOLLGATE_INVALID_INPUT naming `file:line:col` for code that does not parse, and for a
 * REST method Octokit does not have (with the closest one).
 * @example
 * import { octokitRoutes } from './octokit-routes.js';
 * import { scanSource } from './scan-source.js';
 * const code = "await octokit.request('GET /repos/{owner}/{repo}/issues/events', { owner, repo });";
 * scanSource(code, 'bot.ts', await octokitRoutes()).map((c) => `${c.method} ${c.path}`);
 * // ['GET /repos/{owner}/{repo}/issues/events']
 */
export function scanSource(
  code: string,
  file: string,
  routes: ReadonlyMap<string, OctokitRoute>,
  offset: CodeOffset = { line: 0, column: 0 },
): Call[] {
  let ast: Node;
  try {
    ast = parse(code, {
      sourceType: 'unambiguous',
      plugins: pluginsFor(file),
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
      errorRecovery: false,
    }) as unknown as Node;
  } catch (error) {
    const loc = (error as { loc?: { line: number; column: number } }).loc;
    const message = (error instanceof Error ? error.message : String(error)).replace(/ \(\d+:\d+\)$/, '');
    throw inputError([
      {
        code: 'syntax',
        message: `cannot parse: ${message}`,
        path: [],
        source: {
          file,
          line: (loc?.line ?? 1) + offset.line,
          column: (loc?.column ?? 0) + 1 + offset.column,
        },
      },
    ]);
  }
  const calls: Call[] = [];
  const originOf = (node: Node): Origin => {
    const start = node.loc?.start ?? { line: 1, column: 0 };
    return {
      file,
      line: start.line + offset.line,
      column: start.column + 1 + offset.column,
    };
  };
  const unknown: Issue[] = [];
  const methodNames = [...routes.keys()];
  const fromRoute = (route: OctokitRoute | undefined, node: Node, via: string, method: string): void => {
    if (route !== undefined) {
      calls.push({ method: route.method, path: route.url, origin: originOf(node), resolved: true, via });
      return;
    }
    // `x.rest.issues.lisEvents`: no such method, the call would fail at run time.
    const near = closest(method, methodNames);
    unknown.push({
      code: 'unknown_route',
      message: `no Octokit REST method \`${method}\`${near === undefined ? '' : ` (did you mean \`${near}\`?)`}`,
      hint: 'methods of @octokit/plugin-rest-endpoint-methods, e.g. issues.listEventsForRepo',
      path: [],
      source: originOf(node),
    });
  };

  const visitCall = (node: Node): void => {
    const callee = chain(node.callee as Node);
    if (callee === null) return;
    const name = callee[callee.length - 1];
    const method = restMethod(callee);
    if (method !== null) {
      fromRoute(routes.get(method), node, callee.join('.'), method);
      return;
    }
    // x.rest.issues.listEvents.endpoint.merge({...}): the route of a method, to pass on.
    if (name === 'merge' && callee[callee.length - 2] === 'endpoint') {
      const referenced = restMethod(callee.slice(0, -2));
      if (referenced !== null) fromRoute(routes.get(referenced), node, callee.join('.'), referenced);
      return;
    }
    const isPaginate =
      name === 'paginate' || (name === 'iterator' && callee[callee.length - 2] === 'paginate');
    if (name !== 'request' && !isPaginate) return;
    const first = (node.arguments as Node[])[0];
    if (first === undefined) return;
    const text = literal(first);
    if (text !== null) {
      const spelled = ROUTE.exec(text.trim());
      if (spelled !== null)
        calls.push({
          method: spelled[1]!.toUpperCase(),
          path: spelled[2]!,
          origin: originOf(node),
          resolved: true,
          via: callee.join('.'),
        });
      else if (text.startsWith('/'))
        calls.push({
          method: 'GET',
          path: text,
          origin: originOf(node),
          resolved: true,
          via: callee.join('.'),
        });
      return;
    }
    if (isPaginate) {
      const referenced = restMethod(chain(first));
      if (referenced !== null) {
        fromRoute(routes.get(referenced), node, callee.join('.'), referenced);
        return;
      }
      // `endpoint.merge(...)` as the argument is counted where it is called.
      const argumentCallee = first.type === 'CallExpression' ? chain(first.callee as Node) : null;
      if (argumentCallee !== null && argumentCallee.slice(-2).join('.') === 'endpoint.merge') return;
    }
    calls.push({ method: '', path: '', origin: originOf(node), resolved: false, via: callee.join('.') });
  };

  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const child of node) walk(child);
      return;
    }
    const typed = node as Node;
    if (typeof typed.type !== 'string') return;
    if (typed.type === 'CallExpression' || typed.type === 'OptionalCallExpression') visitCall(typed);
    for (const key in typed) {
      if (
        key === 'loc' ||
        key === 'start' ||
        key === 'end' ||
        key === 'leadingComments' ||
        key === 'trailingComments'
      )
        continue;
      const child = typed[key];
      if (child !== null && typeof child === 'object') walk(child);
    }
  };
  walk(ast);
  if (unknown.length > 0) throw inputError(unknown);
  calls.sort((a, b) => a.origin.line - b.origin.line || a.origin.column - b.origin.column);
  return calls;
}

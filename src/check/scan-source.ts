/** Calls found in JavaScript and TypeScript, parsed with @babel/parser: Octokit's REST methods, `request`, `paginate` and `graphql`. */
import type { ParserPlugin } from '@babel/parser';
import { parse } from './babel-parser.js';
import type { Call, Origin } from './call.js';
import type { OctokitRoute } from './octokit-routes.js';
import { chainText, expandChain, headName, linksOf } from './scan-chain.js';
import { namespacesOf, type ScanContext } from './scan-context.js';
import { linkImports } from './scan-imports.js';
import { addGenericCalls, genericKind } from './scan-request.js';
import { addRestCall, restMethodOf } from './scan-rest.js';
import { type AstNode, emptyFacts, type ModuleFacts, noteFacts, walkAst } from './scan-walk.js';

/** Where a piece of code sits in its file: an inline script of a workflow starts `line` lines further down, each line indented `column` more. */
export interface CodeOffset {
  readonly line: number;
  readonly column: number;
}

function pluginsFor(file: string): ParserPlugin[] {
  // Decorators as TypeScript projects write them (`@Injectable()`), in TypeScript and JavaScript.
  if (/\.[mc]?ts$/.test(file)) return ['typescript', 'decorators-legacy'];
  if (file.endsWith('.tsx')) return ['typescript', 'jsx', 'decorators-legacy'];
  return ['jsx', 'decorators-legacy'];
}

/** A REST method referenced as an argument (`retry(octokit.rest.repos.get, params)`) is called there. */
// Test doubles take a method to watch it, not to call it: `expect(octokit.rest.issues.create).toHaveBeenCalled()`.
const TEST_DOUBLES = new Set(['expect', 'jest', 'vi', 'sinon', 'spyOn', 'mock', 'stub', 'assert']);

function addReferences(node: AstNode, context: ScanContext): void {
  const { head, links } = linksOf(node.callee as AstNode);
  const names = [headName(head), ...links.map((link) => link.name)];
  if (names.some((name) => name !== null && TEST_DOUBLES.has(name))) return;
  for (const argument of node.arguments as AstNode[]) {
    if (argument.type !== 'MemberExpression' && argument.type !== 'OptionalMemberExpression') continue;
    for (const chain of expandChain(argument, context.facts)) {
      const rest = restMethodOf(chain, context);
      if (rest?.clientShaped && rest.method !== null) {
        const callee = expandChain(node.callee as AstNode, context.facts)[0];
        addRestCall(
          node,
          chain,
          rest,
          context,
          callee === undefined ? '' : ` (passed to ${chainText(callee)})`,
        );
      }
    }
  }
}

function readCall(node: AstNode, context: ScanContext): void {
  const callee = node.callee as AstNode;
  if (callee.type === 'Import' || callee.type === 'Super') return;
  let generic = false;
  for (const chain of expandChain(callee, context.facts)) {
    const kind = genericKind(chain);
    if (kind !== null) {
      addGenericCalls(node, chain, kind, context);
      generic = true;
      continue;
    }
    // `x.rest.issues.listEvents.endpoint.merge({...})` makes the options of that method, for `paginate`: counted here.
    const names = chain.links.slice(-2).map((link) => link.name);
    const endpointAt = names[1] === 'endpoint' ? 1 : names[0] === 'endpoint' && names[1] === 'merge' ? 2 : 0;
    const rest = restMethodOf(chain, context, chain.links.length - endpointAt);
    if (rest !== null) addRestCall(node, chain, rest, context);
  }
  if (!generic) addReferences(node, context);
}

function parseModule(code: string, file: string): AstNode {
  return parse(code, {
    sourceType: 'unambiguous',
    plugins: pluginsFor(file),
    allowReturnOutsideFunction: true,
    allowAwaitOutsideFunction: true,
    errorRecovery: false,
  }) as unknown as AstNode;
}

/** The names of a module another one imports from; null when it does not parse (its constants stay unknown). */
function factsOfModule(code: string, file: string): ModuleFacts | null {
  let ast: AstNode;
  try {
    ast = parseModule(code, file);
  } catch {
    return null;
  }
  const facts = emptyFacts();
  walkAst(ast, (node) => noteFacts(node, facts));
  return facts;
}

function parseError(error: unknown, file: string, offset: CodeOffset): Call {
  const loc = (error as { loc?: { line: number; column: number } }).loc;
  // @babel/parser recurses on nesting: thousands of nested calls exhaust its stack, not ours.
  const message =
    error instanceof RangeError
      ? 'the code nests deeper than the parser can follow'
      : (error instanceof Error ? error.message : String(error)).replace(/ \(\d+:\d+\)$/, '');
  return {
    method: '',
    path: '',
    origin: { file, line: (loc?.line ?? 1) + offset.line, column: (loc?.column ?? 0) + 1 + offset.column },
    resolved: false,
    via: 'the whole file',
    reason: `cannot parse: ${message}; no call of this file is read`,
  };
}

/**
 * Scans one file's code for the calls an Octokit client makes, whatever the client is (a parameter,
 * `this.github`, `context.octokit`, a function's result, a destructured or aliased name):
 * - REST methods with and without `.rest` (`octokit.issues.create(...)`), also referenced
 *   (`paginate(octokit.rest.pulls.listFiles, ...)`, a method held in a variable, `endpoint.merge`);
 * - `request`/`paginate` with a route: a string, `{ method, url }`, a constant of the module, both
 *   branches of a conditional; URL templates (`{?key,ref}`) and colon parameters as the tables spell them;
 * - `graphql` and `request('POST /graphql')`: a GraphQL call, query or mutation, with its point cost.
 * What cannot be resolved is an unresolved call with a `reason` (a computed method name with the
 * `candidates` the module shows); a method Octokit does not have is one unresolved call; code that
 * does not parse is one unresolved call at the error. Never throws on code.
 * @example
 * import { octokitRoutes } from './octokit-routes.js';
 * import { scanSource } from './scan-source.js';
 * const code = "await octokit.issues.listEventsForRepo({ owner, repo });";
 * scanSource(code, 'bot.ts', await octokitRoutes()).map((c) => `${c.method} ${c.path}`);
 * // ['GET /repos/{owner}/{repo}/issues/events']
 */
export function scanSource(
  code: string,
  file: string,
  routes: ReadonlyMap<string, OctokitRoute>,
  offset: CodeOffset = { line: 0, column: 0 },
): Call[] {
  let ast: AstNode;
  try {
    ast = parseModule(code, file);
  } catch (error) {
    return [parseError(error, file, offset)];
  }
  const origin = (node: AstNode): Origin => {
    const start = node.loc?.start ?? { line: 1, column: 0 };
    return { file, line: start.line + offset.line, column: start.column + 1 + offset.column };
  };
  const context: ScanContext = {
    facts: emptyFacts(),
    routes,
    namespaces: namespacesOf(routes),
    // A workflow's github-script step: `github` is the client.
    script: /\.ya?ml$/i.test(file),
    origin,
    calls: [],
  };
  const callNodes: AstNode[] = [];
  walkAst(ast, (node) => {
    noteFacts(node, context.facts);
    if (node.type === 'CallExpression' || node.type === 'OptionalCallExpression') callNodes.push(node);
  });
  // A workflow's inline script imports nothing by a path relative to itself.
  if (!context.script) linkImports(context.facts, file, factsOfModule, new Map());
  // Names are read first, so a call may come before the constant it uses.
  for (const node of callNodes) readCall(node, context);
  return context.calls.sort((a, b) => a.origin.line - b.origin.line || a.origin.column - b.origin.column);
}

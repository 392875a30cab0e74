/** What the scanner's readers share while scanning one module: the facts, Octokit's methods, and the calls found. */
import type { Call, Origin } from './call.js';
import type { OctokitRoute } from './octokit-routes.js';
import type { AstNode, ModuleFacts } from './scan-walk.js';

/** One module's scan in progress. */
export interface ScanContext {
  readonly facts: ModuleFacts;
  /** Octokit's REST methods by `namespace.method`. */
  readonly routes: ReadonlyMap<string, OctokitRoute>;
  /** Octokit's namespaces, each with its method names. */
  readonly namespaces: ReadonlyMap<string, readonly string[]>;
  /** True for a github-script step, where `github` is the client whatever the module imports. */
  readonly script: boolean;
  readonly origin: (node: AstNode) => Origin;
  readonly calls: Call[];
}

const byRoutes = new WeakMap<ReadonlyMap<string, OctokitRoute>, Map<string, string[]>>();

/**
 * Octokit's namespaces and their methods, from the method table (computed once per table).
 * @example
 * import { namespacesOf } from './scan-context.js';
 * namespacesOf(new Map([['issues.get', { method: 'GET', url: '/x' }]])).get('issues'); // ['get']
 */
export function namespacesOf(
  routes: ReadonlyMap<string, OctokitRoute>,
): ReadonlyMap<string, readonly string[]> {
  let namespaces = byRoutes.get(routes);
  if (namespaces === undefined) {
    namespaces = new Map();
    for (const key of routes.keys()) {
      const dot = key.indexOf('.');
      const namespace = key.slice(0, dot);
      const methods = namespaces.get(namespace);
      if (methods === undefined) namespaces.set(namespace, [key.slice(dot + 1)]);
      else methods.push(key.slice(dot + 1));
    }
    byRoutes.set(routes, namespaces);
  }
  return namespaces;
}

/**
 * Adds a call unless the same route was already found at the same place (two ways to one call).
 * @example
 * import { addCall } from './scan-context.js';
 * import type { Call } from './call.js';
 * const calls: Call[] = [];
 * const call = { method: 'GET', path: '/x', origin: { file: 'a.ts', line: 1, column: 1 }, resolved: true };
 * addCall(calls, call); addCall(calls, call);
 * calls.length; // 1
 */
export function addCall(calls: Call[], call: Call): void {
  for (let i = calls.length - 1; i >= 0; i--) {
    const seen = calls[i]!;
    if (seen.origin.line !== call.origin.line || seen.origin.column !== call.origin.column) break;
    if (
      seen.method === call.method &&
      seen.path === call.path &&
      seen.resolved === call.resolved &&
      seen.reason === call.reason
    )
      return;
  }
  calls.push(call);
}

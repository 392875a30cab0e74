/** Octokit's REST methods in code: `<client>.rest.<namespace>.<method>` and `<client>.<namespace>.<method>`, called or referenced. */
import { closest } from '../core/suggest.js';
import { currentMethodName, legacyNamespaces } from './octokit-legacy-names.js';
import type { OctokitRoute } from './octokit-routes.js';
import { type Chain, chainText, clientLike } from './scan-chain.js';
import { addCall, type ScanContext } from './scan-context.js';
import { normalizePath } from './scan-route.js';
import { describeExpression, stringValues } from './scan-values.js';
import type { AstNode } from './scan-walk.js';

/** A REST method a chain names: its namespace and method (null when computed), and how sure the scanner is that it is Octokit's. */
export interface RestMethod {
  readonly namespace: string | null;
  readonly namespaceNode: AstNode;
  readonly method: string | null;
  readonly methodNode: AstNode;
  /** How many links of the chain the method takes (`octokit.issues.create.call(...)`: the first three). */
  readonly end: number;
  /** The chain says `.rest.`, or what comes before the namespace looks like a client. */
  readonly clientShaped: boolean;
  /** Octokit's for sure enough to count a known method: client-shaped, or in a module of the Octokit family. */
  readonly trusted: boolean;
}

// Calling a method through Function.prototype: still a call of that method.
const FUNCTION_METHODS = new Set(['call', 'apply', 'bind']);

/**
 * The REST method a chain ends with, if it ends with one: `….rest.<namespace>.<method>` whatever the
 * names, or `….<namespace>.<method>` with a namespace Octokit has, after something (a client).
 * @example
 * import { restMethodOf } from './scan-rest.js';
 * import { emptyFacts } from './scan-walk.js';
 * const id = (name: string) => ({ name, node: { type: 'Identifier', name } });
 * const chain = { head: { type: 'Identifier', name: 'octokit' }, links: [id('issues'), id('create')], names: [] };
 * const context = { facts: emptyFacts(), routes: new Map(), namespaces: new Map([['issues', ['create']]]), script: false, origin: () => ({ file: 'a.ts', line: 1, column: 1 }), calls: [] };
 * restMethodOf(chain, context)?.method; // 'create'
 */
export function restMethodOf(
  chain: Chain,
  context: ScanContext,
  end = chain.links.length,
): RestMethod | null {
  const links = chain.links;
  let n = end;
  if (n > 0 && FUNCTION_METHODS.has(links[n - 1]!.name ?? '')) n--;
  if (n < 2) return null;
  const namespaceLink = links[n - 2]!;
  const methodLink = links[n - 1]!;
  const explicit = links[n - 3]?.name === 'rest';
  const namespace = namespaceLink.name;
  const isNamespace =
    namespace !== null && (context.namespaces.has(namespace) || legacyNamespaces.includes(namespace));
  if (!explicit && !isNamespace) return null;
  const clientShaped = explicit || clientLike(chain, n - 2);
  const known =
    namespace !== null &&
    methodLink.name !== null &&
    methodRoute(namespace, methodLink.name, context) !== undefined;
  // A known method on anything in an Octokit module; an unknown one only where the chain is client-shaped.
  const trusted = clientShaped || (known && (context.facts.octokitFamily || context.script));
  if (!trusted) return null;
  return {
    namespace,
    namespaceNode: namespaceLink.node,
    method: methodLink.name,
    methodNode: methodLink.node,
    end: n,
    clientShaped,
    trusted,
  };
}

/** The route of `namespace.method`, under today's name or a name an older Octokit used. */
function methodRoute(
  namespace: string,
  method: string,
  context: ScanContext,
): { name: string; route: OctokitRoute } | undefined {
  const today = `${namespace}.${method}`;
  const route = context.routes.get(today);
  if (route !== undefined) return { name: today, route };
  const current = currentMethodName(namespace, method);
  const renamed = current === undefined ? undefined : context.routes.get(current);
  return renamed === undefined ? undefined : { name: current!, route: renamed };
}

/**
 * Adds the call a REST method makes at `node`: its route from Octokit's table; or, for a method
 * Octokit does not have, an unresolved call with the closest name; for a computed method name,
 * the one route it can be or an unresolved call with the candidates the module shows.
 * @example
 * import { addRestCall } from './scan-rest.js';
 * typeof addRestCall; // 'function'
 */
export function addRestCall(
  node: AstNode,
  chain: Chain,
  rest: RestMethod,
  context: ScanContext,
  suffix = '',
): void {
  const origin = context.origin(node);
  const via = `${chainText(chain, rest.end)}${suffix}`;
  const unresolved = (reason: string, candidates?: readonly string[]): void =>
    addCall(context.calls, {
      method: '',
      path: '',
      origin,
      resolved: false,
      via,
      reason,
      ...(candidates === undefined ? {} : { candidates }),
    });
  if (rest.namespace === null) {
    unresolved(`the namespace is computed (${describeExpression(rest.namespaceNode)})`);
    return;
  }
  const methods = context.namespaces.get(rest.namespace) ?? [];
  if (rest.method !== null) {
    const found = methodRoute(rest.namespace, rest.method, context);
    if (found !== undefined) {
      const renamed =
        found.name === `${rest.namespace}.${rest.method}`
          ? ''
          : ` (an older Octokit's name of ${found.name})`;
      const { route } = found;
      addCall(context.calls, {
        method: route.method,
        path: normalizePath(route.url) ?? route.url,
        origin,
        resolved: true,
        via: `${via}${renamed}`,
      });
      return;
    }
    // `x.rest.issues.lisEvents`: no such method, the call would fail at run time.
    const near = closest(rest.method, methods);
    unresolved(
      `no Octokit REST method \`${rest.namespace}.${rest.method}\`${near === undefined ? '' : ` (did you mean \`${rest.namespace}.${near}\`?)`}`,
    );
    return;
  }
  const values = stringValues(rest.methodNode, context.facts);
  const routeOf = (name: string): string | undefined => {
    const route = context.routes.get(`${rest.namespace}.${name}`);
    return route === undefined ? undefined : `${route.method} ${normalizePath(route.url) ?? route.url}`;
  };
  if (values.complete && values.values.length === 1 && routeOf(values.values[0]!) !== undefined) {
    const route = context.routes.get(`${rest.namespace}.${values.values[0]}`)!;
    addCall(context.calls, {
      method: route.method,
      path: normalizePath(route.url) ?? route.url,
      origin,
      resolved: true,
      via,
    });
    return;
  }
  // The names it may take: its values; when those are not all, any string of the module that names a method of the namespace.
  const names = new Set(values.values.filter((name) => methods.includes(name)));
  if (!values.complete) for (const name of methods) if (context.facts.strings.has(name)) names.add(name);
  const candidates = [...names].sort().map((name) => routeOf(name)!);
  unresolved(
    `the method name is computed (${describeExpression(rest.methodNode)}); ${candidates.length === 0 ? 'no candidate' : `${candidates.length} candidate${candidates.length === 1 ? '' : 's'}`} in this module`,
    candidates,
  );
}

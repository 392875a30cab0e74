/** Octokit's generic calls: `request` and `paginate` with a route (string, `{ method, url }`, a constant, a method), and `graphql`. */
import type { Call } from './call.js';
import { type Chain, chainText, clientLike, expandChain, linksOf, unwrap } from './scan-chain.js';
import { addCall, type ScanContext } from './scan-context.js';
import { graphqlCost, graphqlOperation } from './scan-graphql.js';
import { addRestCall, type RestMethod, restMethodOf } from './scan-rest.js';
import { readRoute } from './scan-route.js';
import { describeExpression, HOLE, stringValues } from './scan-values.js';
import type { AstNode } from './scan-walk.js';

/** Which generic call a chain is: Octokit's `request`, `paginate` (and `paginate.iterator`), `graphql` (and `graphql.paginate`). */
export type GenericKind = 'request' | 'paginate' | 'graphql';

/** Where a route comes from: a route, a REST method passed by reference, options counted where they were made, or unknown. */
type RouteSource =
  | { readonly kind: 'route'; readonly method: string; readonly path: string; readonly query?: AstNode }
  | { readonly kind: 'rest'; readonly chain: Chain; readonly rest: RestMethod }
  | { readonly kind: 'counted' }
  | { readonly kind: 'unresolved'; readonly reason: string };

function lastNames(chain: Chain, count: number): string[] {
  return chain.links.slice(-count).map((link) => link.name ?? '');
}

/**
 * The generic call a chain ends with, if any: `….request`, `….paginate`, `….paginate.iterator`,
 * `….graphql`, `….graphql.paginate`, a bare imported `request`/`graphql`, or what
 * `request.defaults(...)`/`graphql.defaults(...)` returned.
 * @example
 * import { genericKind } from './scan-request.js';
 * genericKind({ head: { type: 'Identifier', name: 'octokit' }, links: [{ name: 'paginate', node: { type: 'Identifier' } }], names: [] }); // 'paginate'
 */
export function genericKind(chain: Chain): GenericKind | null {
  const [third, second, last] = ['', '', '', ...lastNames(chain, 3)].slice(-3);
  if (
    last === 'graphql' ||
    (second === 'graphql' && last === 'paginate') ||
    (third === 'graphql' && last === 'iterator')
  )
    return 'graphql';
  if (last === 'request') return 'request';
  if (last === 'paginate' || (second === 'paginate' && last === 'iterator')) return 'paginate';
  if (chain.links.length > 0) return null;
  const head = chain.head;
  if (head.type === 'Identifier' && ['request', 'graphql'].includes(head.name as string))
    return head.name as GenericKind;
  if (head.type === 'CallExpression') {
    const made = linksOf(head.callee as AstNode);
    const names = [
      made.head.type === 'Identifier' ? (made.head.name as string) : '',
      ...made.links.map((link) => link.name ?? ''),
    ];
    if (names.at(-1) === 'defaults' && (names.at(-2) === 'request' || names.at(-2) === 'graphql'))
      return names.at(-2) as GenericKind;
  }
  return null;
}

function propertyOf(object: AstNode, key: string): AstNode | undefined {
  for (const property of object.properties as AstNode[]) {
    const name = (property.key as AstNode | undefined)?.name ?? (property.key as AstNode | undefined)?.value;
    if (property.type === 'ObjectProperty' && property.computed !== true && name === key)
      return property.value as AstNode;
  }
  return undefined;
}

function routesOf(node: AstNode, context: ScanContext, depth: number): RouteSource[] {
  const bare = unwrap(node);
  if (depth > 6)
    return [{ kind: 'unresolved', reason: `${describeExpression(bare)} is defined too indirectly` }];
  if (bare.type === 'ObjectExpression') {
    const url = propertyOf(bare, 'url');
    if (url === undefined) return [{ kind: 'unresolved', reason: 'the options have no literal `url`' }];
    const method = propertyOf(bare, 'method');
    const methods =
      method === undefined ? { values: ['GET'], complete: true } : stringValues(method, context.facts);
    const urls = stringValues(url, context.facts);
    if (!methods.complete || !urls.complete)
      return [
        { kind: 'unresolved', reason: methods.reason ?? urls.reason ?? 'the options are not literals' },
      ];
    const query = propertyOf(bare, 'query');
    return methods.values.flatMap((m) => urls.values.map((u) => fromText(`${m} ${u}`, query)));
  }
  if (bare.type === 'MemberExpression' || bare.type === 'OptionalMemberExpression') {
    const found: RouteSource[] = [];
    for (const chain of expandChain(bare, context.facts)) {
      const rest = restMethodOf(chain, context);
      if (rest !== null) found.push({ kind: 'rest', chain, rest });
    }
    if (found.length > 0) return found;
  }
  if (bare.type === 'CallExpression' || bare.type === 'OptionalCallExpression') {
    // `x.rest.issues.listForRepo.endpoint.merge({...})`: counted where it is made. `x.request.endpoint.merge('GET /x')`: its route.
    for (const chain of expandChain(bare.callee as AstNode, context.facts)) {
      const names = lastNames(chain, 2);
      const endpointAt = names[1] === 'endpoint' ? 1 : names.join('.') === 'endpoint.merge' ? 2 : 0;
      if (endpointAt === 0) continue;
      if (restMethodOf(chain, context, chain.links.length - endpointAt) !== null)
        return [{ kind: 'counted' }];
      const first = (bare.arguments as AstNode[])[0];
      if (chain.links.at(-endpointAt - 1)?.name === 'request' && first !== undefined)
        return routesOf(first, context, depth + 1);
    }
  }
  if (bare.type === 'Identifier') {
    const given = context.facts.bindings.get(bare.name as string);
    if (given === undefined)
      return [
        {
          kind: 'unresolved',
          reason: `the route is ${describeExpression(bare)}, which has no value in this module (a parameter?)`,
        },
      ];
    return given.flatMap((value) => routesOf(value, context, depth + 1)).slice(0, 16);
  }
  const values = stringValues(bare, context.facts);
  if (!values.complete || values.values.length === 0)
    return [
      {
        kind: 'unresolved',
        // The values' reason is a whole clause (`the result of \`f()\` is not a literal ...`).
        reason:
          values.reason === undefined
            ? `the route is ${describeExpression(bare)}`
            : `the route is not known (${values.reason})`,
      },
    ];
  return values.values.map((text) => fromText(text));
}

function fromText(text: string, query?: AstNode): RouteSource {
  const route = readRoute(text);
  if ('reason' in route) return { kind: 'unresolved', reason: route.reason };
  return { kind: 'route', method: route.method, path: route.path, ...(query === undefined ? {} : { query }) };
}

/** The text of a GraphQL document passed as `node`: a string, a `gql` template, `{ query }`, a constant. Null when out of sight. */
function queryTexts(node: AstNode | undefined, context: ScanContext): string[] | null {
  if (node === undefined) return null;
  const bare = unwrap(node);
  if (bare.type === 'TaggedTemplateExpression') return queryTexts(bare.quasi as AstNode, context);
  if (bare.type === 'ObjectExpression') return queryTexts(propertyOf(bare, 'query'), context);
  const values = stringValues(bare, context.facts);
  return values.values.length === 0 ? null : [...values.values];
}

/**
 * Adds a GraphQL call at `node` (POST /graphql) with its operation and cost, reading the document
 * from `documentNode` where the module spells it.
 * @example
 * import { addGraphqlCall } from './scan-request.js';
 * typeof addGraphqlCall; // 'function'
 */
export function addGraphqlCall(
  node: AstNode,
  via: string,
  documentNode: AstNode | undefined,
  context: ScanContext,
): void {
  const texts = queryTexts(documentNode, context);
  const operations =
    texts === null ? ['unknown' as const] : texts.map((text) => graphqlOperation(text.split(HOLE).join(' ')));
  const operation = operations.includes('mutation')
    ? 'mutation'
    : operations.every((o) => o === 'query')
      ? 'query'
      : 'unknown';
  addCall(context.calls, {
    method: 'POST',
    path: '/graphql',
    origin: context.origin(node),
    resolved: true,
    via,
    graphql: { operation, cost: graphqlCost(operation) },
  });
}

/**
 * Adds the calls of a generic call at `node`: each route its first argument can be (both branches of
 * a conditional), the REST method passed to `paginate`, a GraphQL call, or one unresolved call with
 * the reason. A call whose route is not a literal is counted only on something that looks like a
 * client (or in a module of the Octokit family): `https.request(options)` is not Octokit's.
 * @example
 * import { addGenericCalls } from './scan-request.js';
 * typeof addGenericCalls; // 'function'
 */
export function addGenericCalls(node: AstNode, chain: Chain, kind: GenericKind, context: ScanContext): void {
  const args = node.arguments as AstNode[];
  const via = chainText(chain);
  const importedFrom =
    chain.head.type === 'Identifier' ? context.facts.imports.get(chain.head.name as string) : undefined;
  const trusted =
    clientLike(chain, chain.links.length) ||
    context.facts.octokitFamily ||
    context.script ||
    (importedFrom?.startsWith('@octokit/') ?? false);
  if (kind === 'graphql') {
    // graphql-js's own `graphql(...)` runs a query on a local schema: not a call to the service.
    if (chain.links.length === 0 && (importedFrom === 'graphql' || !trusted)) return;
    addGraphqlCall(node, via, args[0], context);
    return;
  }
  const first = args[0];
  const sources: RouteSource[] =
    first === undefined || first.type === 'SpreadElement'
      ? [{ kind: 'unresolved', reason: 'no route is given' }]
      : routesOf(first, context, 0);
  for (const source of sources) {
    if (source.kind === 'rest') addRestCall(node, source.chain, source.rest, context, ` (through ${via})`);
    else if (source.kind === 'route' && source.method === 'POST' && source.path === '/graphql') {
      const options =
        args[1] !== undefined && unwrap(args[1]).type === 'ObjectExpression'
          ? propertyOf(unwrap(args[1]), 'query')
          : undefined;
      addGraphqlCall(node, via, source.query ?? options, context);
    } else if (source.kind === 'route') {
      const call: Call = {
        method: source.method,
        path: source.path,
        origin: context.origin(node),
        resolved: true,
        via,
      };
      addCall(context.calls, call);
    } else if (source.kind === 'unresolved' && trusted)
      addCall(context.calls, {
        method: '',
        path: '',
        origin: context.origin(node),
        resolved: false,
        via,
        reason: source.reason,
      });
  }
}

/** Member chains (`context.octokit.rest.issues.create`), followed through the names a module gives them. */
import type { AstNode, ModuleFacts } from './scan-walk.js';

/** One link of a chain: a name (`issues`), or a computed key the code does not spell (`repos[methodName]`). */
export interface Link {
  readonly name: string | null;
  readonly node: AstNode;
}

/** What a callee stands for: the innermost expression that is not a member access, then the links after it. */
export interface Chain {
  readonly head: AstNode;
  readonly links: readonly Link[];
  /** The names followed to get here (`gh` in `const gh = github.getOctokit(token); gh.issues.get()`). */
  readonly names: readonly string[];
  /** How the code names the client when the head is what a name was given (`octokit` for `new Octokit()`), and how many links it stands for. */
  readonly display?: { readonly name: string; readonly links: number };
}

// Wrappers that do not change what an expression is: `(octokit as Octokit)`, `octokit!`, `(await getClient())`.
const TRANSPARENT = new Set([
  'TSNonNullExpression',
  'TSAsExpression',
  'TSSatisfiesExpression',
  'TSTypeAssertion',
  'TSInstantiationExpression',
  'ParenthesizedExpression',
  'AwaitExpression',
  'TypeCastExpression',
]);

/**
 * The expression under type-only wrappers, parentheses and `await`.
 * @example
 * import { unwrap } from './scan-chain.js';
 * unwrap({ type: 'TSNonNullExpression', expression: { type: 'Identifier', name: 'octokit' } }).type; // 'Identifier'
 */
export function unwrap(node: AstNode): AstNode {
  let current = node;
  while (TRANSPARENT.has(current.type)) current = (current.expression ?? current.argument) as AstNode;
  return current;
}

function isMember(node: AstNode): boolean {
  return node.type === 'MemberExpression' || node.type === 'OptionalMemberExpression';
}

/**
 * The head and links of a member chain as written, read in a loop (a chain of any length).
 * @example
 * import { linksOf } from './scan-chain.js';
 * const octokit = { type: 'Identifier', name: 'octokit' };
 * const node = { type: 'MemberExpression', object: octokit, property: { type: 'Identifier', name: 'issues' }, computed: false };
 * linksOf(node).links.map((link) => link.name); // ['issues']
 */
export function linksOf(node: AstNode): { head: AstNode; links: Link[] } {
  const reversed: Link[] = [];
  let current = unwrap(node);
  while (isMember(current)) {
    const property = current.property as AstNode;
    if (current.computed !== true && property.type === 'Identifier')
      reversed.push({ name: property.name as string, node: property });
    else if (property.type === 'StringLiteral')
      reversed.push({ name: property.value as string, node: property });
    else if (property.type === 'PrivateName')
      reversed.push({ name: `#${(property.id as AstNode).name}`, node: property });
    else reversed.push({ name: null, node: property });
    current = unwrap(current.object as AstNode);
  }
  return { head: current, links: reversed.reverse() };
}

/** How many bindings one expansion may follow: enough for real aliasing, bounded on cycles (`a = b.c; b = a.d`). */
const BUDGET = 64;
const MAX_CHAINS = 16;
const MAX_DEPTH = 8;

/**
 * What an expression can stand for, following names to the values the module gives them
 * (`const { issues } = octokit.rest` makes `issues.create` stand for `octokit.rest.issues.create`)
 * and both sides of a conditional. At most 16 chains; a name without a value stays a head.
 * @example
 * import { emptyFacts } from './scan-walk.js';
 * import { expandChain } from './scan-chain.js';
 * expandChain({ type: 'Identifier', name: 'octokit' }, emptyFacts())[0]?.head.name; // 'octokit'
 */
export function expandChain(node: AstNode, facts: ModuleFacts): Chain[] {
  const budget = { left: BUDGET };
  return expand(node, facts, 0, budget);
}

function expand(node: AstNode, facts: ModuleFacts, depth: number, budget: { left: number }): Chain[] {
  const { head, links } = linksOf(node);
  const heads: AstNode[] = [];
  if (head.type === 'ConditionalExpression')
    heads.push(head.consequent as AstNode, head.alternate as AstNode);
  else if (head.type === 'LogicalExpression') heads.push(head.left as AstNode, head.right as AstNode);
  let name: string | undefined;
  if (head.type === 'Identifier') {
    name = head.name as string;
    heads.push(...(facts.bindings.get(name) ?? []));
  }
  if (heads.length === 0 || depth >= MAX_DEPTH || budget.left <= 0)
    return [{ head, links, names: name === undefined ? [] : [name] }];
  const out: Chain[] = [];
  for (const next of heads) {
    if (budget.left-- <= 0 || out.length >= MAX_CHAINS) break;
    for (const chain of expand(next, facts, depth + 1, budget)) {
      const named = chain.head.type === 'Identifier' || chain.head.type === 'ThisExpression';
      const display =
        chain.display ?? (name === undefined || named ? undefined : { name, links: chain.links.length });
      out.push({
        head: chain.head,
        links: chain.links.concat(links),
        names: name === undefined ? chain.names : chain.names.concat(name),
        ...(display === undefined ? {} : { display }),
      });
      if (out.length >= MAX_CHAINS) break;
    }
  }
  return out;
}

/**
 * The name a head goes by: an identifier's name, `this`, the function a call's result comes from
 * (`getOctokit` for `github.getOctokit(token)`), the class constructed.
 * @example
 * import { headName } from './scan-chain.js';
 * headName({ type: 'ThisExpression' }); // 'this'
 */
export function headName(head: AstNode): string {
  if (head.type === 'Identifier') return head.name as string;
  if (head.type === 'ThisExpression') return 'this';
  if (
    head.type === 'CallExpression' ||
    head.type === 'OptionalCallExpression' ||
    head.type === 'NewExpression'
  ) {
    const { head: inner, links } = linksOf(head.callee as AstNode);
    const last = links[links.length - 1];
    return last?.name ?? (inner.type === 'Identifier' ? (inner.name as string) : '');
  }
  return '';
}

// Names a client goes by in real code: octokit, github (github-script, Probot's context.github,
// actions-toolkit's tools.github), gh, client, api, kit, and getOctokit(...), new GitHub(...).
const CLIENT_NAME = /octokit|github|^octo|^gh(?:[A-Z_0-9]|$)|client|(?:^|[a-z_])api$|^api|^kit$|^rest$/i;

/**
 * True when what comes before link `index` looks like an Octokit client: a name along the way
 * (the head, a link, a name followed) is one a client goes by.
 * @example
 * import { clientLike } from './scan-chain.js';
 * const links = [{ name: 'octokit', node: { type: 'Identifier' } }, { name: 'issues', node: { type: 'Identifier' } }];
 * clientLike({ head: { type: 'Identifier', name: 'context' }, links, names: [] }, 1); // true
 */
export function clientLike(chain: Chain, index: number): boolean {
  if (CLIENT_NAME.test(headName(chain.head))) return true;
  for (let i = 0; i < index; i++) {
    const name = chain.links[i]?.name;
    if (name != null && CLIENT_NAME.test(name)) return true;
  }
  return chain.names.some((name) => CLIENT_NAME.test(name));
}

/**
 * A chain as text for reports, its last links only when it is long: `context.octokit.rest.issues.create`.
 * @example
 * import { chainText } from './scan-chain.js';
 * chainText({ head: { type: 'Identifier', name: 'octokit' }, links: [{ name: 'request', node: { type: 'Identifier' } }], names: [] }); // 'octokit.request'
 */
export function chainText(chain: Chain, upTo = chain.links.length): string {
  const from = Math.min(chain.display?.links ?? 0, upTo);
  const start = Math.max(from, upTo - 6);
  const shown = chain.links.slice(start, upTo).map((link) => (link.name === null ? '[…]' : link.name));
  const named = chain.head.type === 'Identifier' || chain.head.type === 'ThisExpression';
  const head = chain.display?.name ?? (named ? headName(chain.head) : `${headName(chain.head) || '(…)'}(…)`);
  return [start > from ? '…' : head, ...shown].join('.');
}

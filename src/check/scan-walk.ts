/** The scanner's view of a module: an iterative walk over the syntax tree, and the facts it gathers on the way. */

/** A node of @babel/parser's tree, read loosely: only `type` and `loc` are relied on everywhere. */
export type AstNode = { type: string; loc?: { start: { line: number; column: number } } } & Record<
  string,
  unknown
>;

/** What the scanner knows of a module beyond one expression: the values names are given, its strings, its imports. */
export interface ModuleFacts {
  /** Every expression a name is given in the module (declarations, assignments, destructuring), scope ignored. */
  readonly bindings: Map<string, AstNode[]>;
  /** Every string literal of the module (the candidates of a computed method name are among them). */
  readonly strings: Set<string>;
  /** Local name to the module it is imported from (`graphql` from `@octokit/graphql`). */
  readonly imports: Map<string, string>;
  /** Local name to the name the module exports it as (`default` and `*` for those imports). */
  readonly importedNames: Map<string, string>;
  /** A constant another module of the project exports (`import { QUERY } from './data.js'`), when the scanner can read that module. */
  loadExport?: (
    from: string,
    name: string,
  ) => { readonly node: AstNode; readonly facts: ModuleFacts } | undefined;
  /** True when the module imports or requires an Octokit-family module (`@octokit/*`, `@actions/github`, `probot`...). */
  octokitFamily: boolean;
}

// Keys of a node that hold no code.
const SKIPPED_KEYS = new Set([
  'loc',
  'start',
  'end',
  'extra',
  'leadingComments',
  'trailingComments',
  'innerComments',
  'comments',
  'tokens',
  'errors',
]);

// Modules whose clients make the calls `check` looks for.
const OCTOKIT_FAMILY =
  /^(?:@octokit\/|octokit$|@actions\/github(?:-script)?$|probot$|@probot\/|actions-toolkit$)/;

/**
 * Calls `visit` on every node of the tree, parents before children, with an explicit stack: no
 * recursion, so a 5,000-link member chain or 200,000 calls in one file cannot overflow the stack.
 * @example
 * import { walkAst } from './scan-walk.js';
 * const types: string[] = [];
 * walkAst({ type: 'File', program: { type: 'Program', body: [] } }, (node) => types.push(node.type));
 * types; // ['File', 'Program']
 */
export function walkAst(root: AstNode, visit: (node: AstNode) => void): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object') continue;
    if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push(item[i]);
      continue;
    }
    const node = item as AstNode;
    if (typeof node.type !== 'string') continue;
    visit(node);
    const keys = Object.keys(node);
    for (let k = keys.length - 1; k >= 0; k--) {
      const key = keys[k]!;
      if (SKIPPED_KEYS.has(key)) continue;
      const child = node[key];
      if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
}

/**
 * Empty facts, to be filled by `noteFacts` node by node.
 * @example
 * import { emptyFacts } from './scan-walk.js';
 * emptyFacts().octokitFamily; // false
 */
export function emptyFacts(): ModuleFacts {
  return {
    bindings: new Map(),
    strings: new Set(),
    imports: new Map(),
    importedNames: new Map(),
    octokitFamily: false,
  };
}

/** `object.key` as a node, for what destructuring gives a name: `const { issues } = octokit.rest` binds `octokit.rest.issues`. */
function member(object: AstNode, key: string, at: AstNode): AstNode {
  return {
    type: 'MemberExpression',
    object,
    property: { type: 'Identifier', name: key, loc: at.loc },
    computed: false,
    loc: at.loc,
  };
}

function bind(facts: ModuleFacts, pattern: AstNode, value: AstNode): void {
  const work: [AstNode, AstNode][] = [[pattern, value]];
  while (work.length > 0) {
    const [target, source] = work.pop()!;
    if (target.type === 'Identifier') {
      const name = target.name as string;
      const known = facts.bindings.get(name);
      if (known === undefined) facts.bindings.set(name, [source]);
      else if (known.length < 16) known.push(source);
    } else if (target.type === 'AssignmentPattern') {
      // `{ octokit = getOctokit(token) } = options`: either value.
      work.push([target.left as AstNode, source], [target.left as AstNode, target.right as AstNode]);
    } else if (target.type === 'ObjectPattern') {
      for (const property of target.properties as AstNode[]) {
        if (property.type !== 'ObjectProperty' || property.computed === true) continue;
        const key = property.key as AstNode;
        const name =
          key.type === 'Identifier'
            ? (key.name as string)
            : key.type === 'StringLiteral'
              ? (key.value as string)
              : null;
        if (name !== null) work.push([property.value as AstNode, member(source, name, property)]);
      }
    }
  }
}

/** `exports.QUERY = ...`, `module.exports.QUERY = ...`, `module.exports = { QUERY: ... }`: names another module may import. */
function noteCommonJsExport(facts: ModuleFacts, target: AstNode, value: AstNode): void {
  if (target.type !== 'MemberExpression' || target.computed === true) return;
  const object = target.object as AstNode;
  const key = (target.property as AstNode).name as string;
  const isModule = object.type === 'Identifier' && object.name === 'module';
  const isExports =
    (object.type === 'Identifier' && object.name === 'exports') ||
    (object.type === 'MemberExpression' &&
      (object.object as AstNode).name === 'module' &&
      (object.property as AstNode).name === 'exports');
  if (isExports) bind(facts, { type: 'Identifier', name: key }, value);
  else if (isModule && key === 'exports' && value.type === 'ObjectExpression')
    for (const property of value.properties as AstNode[]) {
      const name = (property.key as AstNode | undefined)?.name;
      const given = property.value as AstNode | undefined;
      const self = given?.type === 'Identifier' && given.name === name;
      if (property.type === 'ObjectProperty' && typeof name === 'string' && given !== undefined && !self)
        bind(facts, { type: 'Identifier', name }, given);
    }
}

function noteModule(facts: ModuleFacts, source: unknown): void {
  if (typeof source === 'string' && OCTOKIT_FAMILY.test(source)) facts.octokitFamily = true;
}

/**
 * Adds what one node tells about its module: a binding, a string, an import.
 * @example
 * import { emptyFacts, noteFacts } from './scan-walk.js';
 * const facts = emptyFacts();
 * noteFacts({ type: 'StringLiteral', value: 'listForRepo' }, facts);
 * facts.strings.has('listForRepo'); // true
 */
export function noteFacts(node: AstNode, facts: ModuleFacts): void {
  switch (node.type) {
    case 'StringLiteral':
      facts.strings.add(node.value as string);
      break;
    case 'VariableDeclarator':
      if (node.init != null) bind(facts, node.id as AstNode, node.init as AstNode);
      break;
    case 'AssignmentExpression':
      if (node.operator === '=') {
        bind(facts, node.left as AstNode, node.right as AstNode);
        noteCommonJsExport(facts, node.left as AstNode, node.right as AstNode);
      }
      break;
    case 'ImportDeclaration': {
      const from = (node.source as AstNode).value as string;
      noteModule(facts, from);
      for (const specifier of node.specifiers as AstNode[]) {
        const local = (specifier.local as AstNode).name as string;
        const imported = specifier.imported as AstNode | undefined;
        facts.imports.set(local, from);
        facts.importedNames.set(
          local,
          specifier.type === 'ImportNamespaceSpecifier'
            ? '*'
            : ((imported?.name ?? imported?.value ?? 'default') as string),
        );
      }
      break;
    }
    case 'CallExpression': {
      const callee = node.callee as AstNode;
      const first = (node.arguments as AstNode[])[0];
      if ((callee.type === 'Identifier' && callee.name === 'require') || callee.type === 'Import')
        noteModule(facts, first?.value);
      break;
    }
    case 'ImportExpression':
      noteModule(facts, (node.source as AstNode).value);
      break;
  }
}

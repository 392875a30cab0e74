/** The string values an expression can take, as far as the module spells them: literals, constants, both branches. */
import { linksOf, unwrap } from './scan-chain.js';
import type { AstNode, ModuleFacts } from './scan-walk.js';

/** A hole of a template literal in a value: `GET /repos/${owner}` reads `GET /repos/\u0001owner\u0001`. */
export const HOLE = '\u0001';

/** What an expression can be: its values, and whether they are all it can be (else `reason` says why not). */
export interface StringValues {
  readonly values: readonly string[];
  readonly complete: boolean;
  readonly reason?: string;
}

const MAX_VALUES = 16;
const MAX_DEPTH = 8;

/**
 * How an expression reads in a reason: ``the variable `route` `` or ``the result of `routeFor()` ``.
 * @example
 * import { describeExpression } from './scan-values.js';
 * describeExpression({ type: 'Identifier', name: 'route' }); // 'the variable `route`'
 */
export function describeExpression(node: AstNode): string {
  const bare = unwrap(node);
  if (bare.type === 'Identifier') return `the variable \`${bare.name}\``;
  if (bare.type === 'MemberExpression' || bare.type === 'OptionalMemberExpression') {
    const { head, links } = linksOf(bare);
    const start =
      head.type === 'Identifier' ? (head.name as string) : head.type === 'ThisExpression' ? 'this' : '(…)';
    return `\`${[start, ...links.slice(-4).map((link) => link.name ?? '[…]')].join('.')}\``;
  }
  if (bare.type === 'CallExpression' || bare.type === 'OptionalCallExpression') {
    const { links, head } = linksOf(bare.callee as AstNode);
    const name =
      links[links.length - 1]?.name ?? (head.type === 'Identifier' ? (head.name as string) : 'a function');
    return `the result of \`${name}()\``;
  }
  if (bare.type === 'TemplateLiteral') return 'a template with holes';
  return `an expression (${bare.type})`;
}

/**
 * Every string value the module shows an expression can take: a literal, a template (holes marked
 * with HOLE and the hole's name), a constant or any value a name is given, both branches of `?:`
 * and of `||`/`??`, `+` of those, a property of a constant object. At most 16 values.
 * @example
 * import { emptyFacts } from './scan-walk.js';
 * import { stringValues } from './scan-values.js';
 * const node = { type: 'ConditionalExpression', consequent: { type: 'StringLiteral', value: 'GET /a' }, alternate: { type: 'StringLiteral', value: 'GET /b' } };
 * stringValues(node, emptyFacts()).values; // ['GET /a', 'GET /b']
 */
export function stringValues(node: AstNode, facts: ModuleFacts): StringValues {
  return valuesOf(node, facts, 0, { left: 64 });
}

const NONE: StringValues = { values: [], complete: false };

function valuesOf(node: AstNode, facts: ModuleFacts, depth: number, budget: { left: number }): StringValues {
  const bare = unwrap(node);
  if (depth > MAX_DEPTH || budget.left-- <= 0)
    return { ...NONE, reason: `${describeExpression(bare)} is defined too indirectly` };
  switch (bare.type) {
    case 'StringLiteral':
      return { values: [bare.value as string], complete: true };
    case 'TemplateLiteral': {
      const quasis = bare.quasis as { value: { cooked: string | null; raw: string } }[];
      const holes = bare.expressions as AstNode[];
      let text = quasis[0]?.value.cooked ?? '';
      for (let i = 0; i < holes.length; i++) {
        const hole = holes[i]!;
        // A hole whose one value the module spells is that value; any other a named hole.
        const known = valuesOf(hole, facts, depth + 1, budget);
        text +=
          known.complete && known.values.length === 1 ? known.values[0] : `${HOLE}${holeName(hole)}${HOLE}`;
        text += quasis[i + 1]?.value.cooked ?? '';
      }
      return { values: [text], complete: true };
    }
    case 'ConditionalExpression':
      return union([bare.consequent as AstNode, bare.alternate as AstNode], facts, depth, budget);
    case 'LogicalExpression':
      return union([bare.left as AstNode, bare.right as AstNode], facts, depth, budget);
    case 'BinaryExpression': {
      if (bare.operator !== '+') break;
      const left = valuesOf(bare.left as AstNode, facts, depth + 1, budget);
      const right = valuesOf(bare.right as AstNode, facts, depth + 1, budget);
      if (!left.complete || !right.complete) return { ...NONE, reason: left.reason ?? right.reason };
      const values: string[] = [];
      for (const a of left.values)
        for (const b of right.values) if (values.length < MAX_VALUES) values.push(a + b);
      return { values, complete: true };
    }
    case 'Identifier': {
      const given = facts.bindings.get(bare.name as string);
      if (given !== undefined) return union(given, facts, depth, budget);
      // `import { QUERY } from './data.js'`: the constant of that module.
      const from = facts.imports.get(bare.name as string);
      const exported =
        from === undefined
          ? undefined
          : facts.loadExport?.(from, facts.importedNames.get(bare.name as string)!);
      if (exported !== undefined) return valuesOf(exported.node, exported.facts, depth + 1, budget);
      return { ...NONE, reason: `${describeExpression(bare)} has no value in this module (a parameter?)` };
    }
    case 'MemberExpression': {
      // `ROUTES.listEvents` of `const ROUTES = { listEvents: 'GET /...' }`.
      const { head, links } = linksOf(bare);
      const key = links.length === 1 ? links[0]!.name : null;
      const objects = head.type === 'Identifier' ? (facts.bindings.get(head.name as string) ?? []) : [head];
      const found: AstNode[] = [];
      // `data.QUERY` of `import * as data from './data.js'`, `require('./data').QUERY`.
      const module =
        head.type === 'Identifier' && facts.importedNames.get(head.name as string) === '*'
          ? facts.imports.get(head.name as string)
          : undefined;
      const required = [...objects.map(requiredModule), module].filter((from) => from !== undefined);
      for (const from of required) {
        const exported = key === null ? undefined : facts.loadExport?.(from, key);
        if (exported !== undefined) return valuesOf(exported.node, exported.facts, depth + 1, budget);
      }
      for (const object of objects) {
        const bareObject = unwrap(object);
        if (bareObject.type !== 'ObjectExpression' || key === null) continue;
        for (const property of bareObject.properties as AstNode[]) {
          const propertyKey = property.key as AstNode | undefined;
          const name = propertyKey?.type === 'Identifier' ? propertyKey.name : propertyKey?.value;
          if (property.type === 'ObjectProperty' && property.computed !== true && name === key)
            found.push(property.value as AstNode);
        }
      }
      if (found.length > 0) return union(found, facts, depth, budget);
      break;
    }
  }
  return { ...NONE, reason: `${describeExpression(bare)} is not a literal the module spells` };
}

function union(
  nodes: readonly AstNode[],
  facts: ModuleFacts,
  depth: number,
  budget: { left: number },
): StringValues {
  const values = new Set<string>();
  for (const node of nodes) {
    const part = valuesOf(node, facts, depth + 1, budget);
    if (!part.complete) return { values: [...values, ...part.values], complete: false, reason: part.reason };
    for (const value of part.values) if (values.size < MAX_VALUES) values.add(value);
  }
  return { values: [...values], complete: true };
}

/** The module of `require('./data')`, or undefined. */
function requiredModule(node: AstNode): string | undefined {
  const bare = unwrap(node);
  if (bare.type !== 'CallExpression') return undefined;
  const callee = bare.callee as AstNode;
  const first = (bare.arguments as AstNode[])[0];
  return callee.type === 'Identifier' && callee.name === 'require' && first?.type === 'StringLiteral'
    ? (first.value as string)
    : undefined;
}

function holeName(hole: AstNode): string {
  const bare = unwrap(hole);
  if (bare.type === 'Identifier') return bare.name as string;
  if (bare.type === 'MemberExpression' || bare.type === 'OptionalMemberExpression') {
    const last = linksOf(bare).links.at(-1);
    if (last?.name != null) return last.name;
  }
  return 'value';
}

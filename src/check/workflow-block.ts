/** A `permissions:` block of a workflow or job, read in the workflow vocabulary (data/workflow-permissions.yaml). */
import { isMap, isScalar, type Scalar } from 'yaml';
import type { Issue } from '../core/issue.js';
import { closest } from '../core/suggest.js';
import type { PathReader } from '../tables/yaml-keys.js';
import type { Origin } from './call.js';
import { shorthandBlock, WORKFLOW_KEYS } from './workflow-keys.js';

type Level = 'read' | 'write';
const SHORTHANDS = ['read-all', 'write-all'] as const;

/**
 * The block at `path` in workflow keys (`read-all` and `write-all` spelled out, `none` dropped),
 * undefined when there is none; problems go to `issues`, each naming the valid choices.
 * @example
 * import { parseDocument } from 'yaml';
 * import { readBlock } from './workflow-block.js';
 * const doc = parseDocument('permissions: { pull-requests: write, id-token: write, issues: none }');
 * readBlock(doc, ['permissions'], () => ({ file: 'ci.yml', line: 1, column: 1 }), []);
 * // { 'pull-requests': 'write', 'id-token': 'write' }
 */
export function readBlock(
  document: PathReader,
  path: (string | number)[],
  at: (offset: number | undefined) => Origin,
  issues: Issue[],
): Record<string, Level> | undefined {
  const node = document.getIn(path, true) as { range?: [number, number, number] } | undefined;
  if (node === undefined) return undefined;
  const value = isScalar(node) ? (node as Scalar).value : undefined;
  if (value === 'read-all') return shorthandBlock('read');
  if (value === 'write-all') return shorthandBlock('write');
  const keys = [...WORKFLOW_KEYS.keys()];
  if (!isMap(node)) {
    issues.push({
      code: 'bad_permissions',
      message: `\`permissions: ${String(value)}\` is neither a shorthand nor a map`,
      hint: `valid: ${SHORTHANDS.join(', ')}, {} or \`key: read|write|none\``,
      path,
      source: at(node.range?.[0]),
    });
    return {};
  }
  const block: Record<string, Level> = {};
  for (const pair of node.items) {
    const key = isScalar(pair.key) ? String((pair.key as Scalar).value) : '';
    const level = isScalar(pair.value) ? String((pair.value as Scalar).value) : '';
    const source = at((pair.key as { range?: [number, number, number] }).range?.[0]);
    const info = WORKFLOW_KEYS.get(key);
    if (info === undefined) {
      const near = closest(key, keys);
      issues.push({
        code: 'unknown_permission',
        message: `unknown workflow permission \`${key}\`${near === undefined ? '' : ` (did you mean \`${near}\`?)`}`,
        hint: `valid keys: ${keys.join(', ')}`,
        path: [...path, key],
        source,
      });
      continue;
    }
    if (level === 'none') continue;
    if (!(info.levels as readonly string[]).includes(level)) {
      issues.push({
        code: 'unknown_level',
        message: `workflow permission \`${key}\` has no level \`${level}\``,
        hint: `valid levels: ${[...info.levels, 'none'].join(', ')}`,
        path: [...path, key],
        source,
      });
      continue;
    }
    block[key] = level as Level;
  }
  return block;
}

/** The workflow `permissions:` vocabulary (data/workflow-permissions.yaml): keys, levels, and the seed permission each grants. */
import table from '../generated/workflow-permissions.json';

type Level = 'read' | 'write';

interface KeyInfo {
  readonly levels: readonly Level[];
  /** The seed's fine-grained permission the key grants the workflow token; absent when the seeds lack it. */
  readonly grants?: string;
}

/**
 * Every workflow `permissions:` key, as the service's workflow syntax lists them, with the levels
 * it takes and the seed permission it grants the workflow token.
 * @example
 * import { WORKFLOW_KEYS } from './workflow-keys.js';
 * WORKFLOW_KEYS.get('issues'); // { levels: ['read', 'write'], grants: 'issues' }
 * WORKFLOW_KEYS.has('pull-requests'); // true
 */
export const WORKFLOW_KEYS: ReadonlyMap<string, KeyInfo> = new Map(
  Object.entries((table as { keys: Record<string, KeyInfo> }).keys),
);

/** What the workflow token holds whatever its block says. */
export const ALWAYS_HELD: Readonly<Record<string, Level>> = (table as { always: Record<string, Level> })
  .always;

/** Where the vocabulary comes from (the table's `source`). */
export const WORKFLOW_KEYS_SOURCE: string = (table as { source: string }).source;

const keyOfSlug = new Map(
  [...WORKFLOW_KEYS].flatMap(([key, info]) => (info.grants === undefined ? [] : [[info.grants, key]])),
);

/**
 * A block in workflow keys (`read-all` and `write-all` spelled out: every key at its highest
 * level up to the one asked).
 * @example
 * import { shorthandBlock } from './workflow-keys.js';
 * shorthandBlock('read')['pull-requests']; // 'read'
 */
export function shorthandBlock(level: Level): Record<string, Level> {
  return Object.fromEntries(
    [...WORKFLOW_KEYS].map(([key, info]) => [key, info.levels.includes(level) ? level : info.levels[0]!]),
  );
}

/**
 * The seed permissions a block grants the workflow token: each key's permission, plus what it
 * always holds; keys the seeds lack grant nothing.
 * @example
 * import { seedPermissions } from './workflow-keys.js';
 * seedPermissions({ 'pull-requests': 'write', 'id-token': 'write' });
 * // { metadata: 'read', pull_requests: 'write' }
 */
export function seedPermissions(block: Readonly<Record<string, Level>>): Record<string, Level> {
  const permissions: Record<string, Level> = { ...ALWAYS_HELD };
  for (const [key, level] of Object.entries(block)) {
    const slug = WORKFLOW_KEYS.get(key)?.grants;
    if (slug !== undefined) permissions[slug] = level;
  }
  return permissions;
}

/**
 * A grant in seed permissions as a workflow block: what a key can hold, and what none can (the
 * workflow token cannot hold it); what the token always holds is left out.
 * @example
 * import { workflowBlock } from './workflow-keys.js';
 * workflowBlock({ pull_requests: 'read', variables: 'read', metadata: 'read' });
 * // { block: { 'pull-requests': 'read' }, cannotHold: ['variables=read'] }
 */
export function workflowBlock(permissions: Readonly<Record<string, Level>>): {
  block: Record<string, Level>;
  cannotHold: string[];
} {
  const block: Record<string, Level> = {};
  const cannotHold: string[] = [];
  for (const [slug, level] of Object.entries(permissions)) {
    if (ALWAYS_HELD[slug] === level || (ALWAYS_HELD[slug] === 'write' && level === 'read')) continue;
    const key = keyOfSlug.get(slug);
    if (key === undefined || !WORKFLOW_KEYS.get(key)!.levels.includes(level))
      cannotHold.push(`${slug}=${level}`);
    else block[key] = level;
  }
  return { block, cannotHold };
}

/** True when the workflow token can hold `slug` at `level` (a key grants it, or it always holds it). */
export function workflowCanHold(slug: string, level: Level): boolean {
  if (ALWAYS_HELD[slug] === 'write' || ALWAYS_HELD[slug] === level) return true;
  const key = keyOfSlug.get(slug);
  return key !== undefined && WORKFLOW_KEYS.get(key)!.levels.includes(level);
}

/**
 * A block a user can paste into a workflow or a job, in workflow keys; `permissions: {}` when
 * the job needs nothing.
 * @example
 * import { blockText } from './workflow-keys.js';
 * blockText({ issues: 'write', contents: 'read' }); // 'permissions:\n  contents: read\n  issues: write'
 */
export function blockText(block: Readonly<Record<string, Level>>): string {
  const keys = Object.keys(block).sort();
  if (keys.length === 0) return 'permissions: {}';
  return ['permissions:', ...keys.map((key) => `  ${key}: ${block[key]}`)].join('\n');
}

/** The alternative to name when a workflow token cannot hold what a call needs. */
export const WORKFLOW_TOKEN_ALTERNATIVE =
  'an app installation token or a fine-grained token, given to the step as `github-token:` (or `GH_TOKEN`)';

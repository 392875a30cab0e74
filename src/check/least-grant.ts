/** The least-privilege grant: the smallest permissions (or scopes) that meet every requirement. */

import type { Level } from '../core/token.js';
import { permissionsMeet, scopesMeet } from '../policy/requirement.js';
import { heldScopes } from '../policy/scope-closure.js';
import type { PolicyTables } from '../policy/tables.js';

/** A permission requirement: alternatives (OR) of `slug: level` sets (AND). */
export type PermissionNeed = readonly Readonly<Record<string, Level>>[];
/** A classic-scope requirement: alternatives (OR) of scope sets (AND). */
export type ScopeNeed = readonly (readonly string[])[];

const rank = (level: Level | undefined) => (level === 'write' ? 2 : level === 'read' ? 1 : 0);

function addedCost(
  grant: Readonly<Record<string, Level>>,
  alternative: Readonly<Record<string, Level>>,
): number {
  let cost = 0;
  for (const [slug, level] of Object.entries(alternative)) if (rank(grant[slug]) < rank(level)) cost++;
  return cost;
}

/**
 * The least permissions meeting every need: per need, the alternative that adds least to what is
 * already granted (needs with one alternative first, so choices see what is certain), then every
 * permission that can go, or drop from `write` to `read`, is taken away. So the grant is
 * sufficient, minimal (no single permission can be removed or lowered), and never larger than the
 * best alternative of each need added up.
 * @example
 * import { leastPermissions } from './least-grant.js';
 * leastPermissions([[{ issues: 'read' }, { pull_requests: 'read' }], [{ issues: 'write' }]]);
 * // { issues: 'write' }
 */
export function leastPermissions(needs: readonly PermissionNeed[]): Record<string, Level> {
  const grant: Record<string, Level> = {};
  const ordered = [...needs].filter((need) => need.length > 0).sort((a, b) => a.length - b.length);
  for (const need of ordered) {
    if (permissionsMeet(need, grant)) continue;
    let best = need[0]!;
    for (const alternative of need)
      if (addedCost(grant, alternative) < addedCost(grant, best)) best = alternative;
    for (const [slug, level] of Object.entries(best))
      if (rank(grant[slug]) < rank(level)) grant[slug] = level;
  }
  const meetsAll = (candidate: Readonly<Record<string, Level>>) =>
    ordered.every((need) => permissionsMeet(need, candidate));
  for (let changed = true; changed; ) {
    changed = false;
    for (const slug of Object.keys(grant).sort()) {
      const { [slug]: level, ...without } = grant;
      if (meetsAll(without)) {
        delete grant[slug];
        changed = true;
      } else if (level === 'write' && meetsAll({ ...without, [slug]: 'read' })) {
        grant[slug] = 'read';
        changed = true;
      }
    }
  }
  return Object.fromEntries(Object.entries(grant).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * The least classic scopes meeting every need, with the scope hierarchy (`repo` covers
 * `public_repo`): per need the alternative adding fewest scopes not already held, then every scope
 * that can go (another chosen scope implies it, or no need was left wanting it) is taken away.
 * @example
 * import { shippedTables } from 'tollgate';
 * import { leastScopes } from './least-grant.js';
 * leastScopes([[['repo']], [['public_repo']], [['notifications'], ['repo']]], shippedTables()); // ['repo']
 */
export function leastScopes(needs: readonly ScopeNeed[], tables: PolicyTables): string[] {
  const closure = tables.scopeClosure;
  const ordered = [...needs].filter((need) => need.length > 0).sort((a, b) => a.length - b.length);
  let grant: string[] = [];
  for (const need of ordered) {
    const held = heldScopes(grant, closure);
    if (scopesMeet(need, held)) continue;
    let best = need[0]!;
    const missing = (alternative: readonly string[]) =>
      alternative.filter((scope) => !held.has(scope)).length;
    for (const alternative of need) if (missing(alternative) < missing(best)) best = alternative;
    grant = [...new Set([...grant, ...best.filter((scope) => !held.has(scope))])];
  }
  const meetsAll = (candidate: readonly string[]) => {
    const held = heldScopes(candidate, closure);
    return ordered.every((need) => scopesMeet(need, held));
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const scope of [...grant].sort()) {
      const without = grant.filter((s) => s !== scope);
      if (meetsAll(without)) {
        grant = without;
        changed = true;
      }
    }
  }
  return grant.sort();
}

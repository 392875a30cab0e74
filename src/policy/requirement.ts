/** Requirement algebra: does a grant meet a requirement, what is missing, the smallest addition. */
// Hot path: authorize() calls these per request; the bench guards them.
import type { Level, Requirement, ScopeRequirement } from './types.js';

/** True when `granted` meets `needed` (`write` implies `read`). */
export function levelCovers(granted: Level | undefined, needed: Level): boolean {
  return granted === 'write' || granted === needed;
}

/**
 * Per alternative, the permissions `granted` lacks; an empty object marks a met alternative.
 * @example
 * import { missingPermissions } from 'tollgate/policy';
 * missingPermissions([{ issues: 'read' }, { pull_requests: 'read' }], { contents: 'read' });
 * // [{ issues: 'read' }, { pull_requests: 'read' }]
 */
export function missingPermissions(
  requirement: Requirement,
  granted: Readonly<Record<string, Level>>,
): Record<string, Level>[] {
  return requirement.map((alternative) => {
    const missing: Record<string, Level> = {};
    for (const slug in alternative) {
      const level = alternative[slug]!;
      if (!levelCovers(Object.hasOwn(granted, slug) ? granted[slug] : undefined, level))
        missing[slug] = level;
    }
    return missing;
  });
}

/**
 * True when some alternative of `requirement` is fully granted.
 * @example
 * import { permissionsMeet } from 'tollgate/policy';
 * permissionsMeet([{ issues: 'read' }], { issues: 'write' }); // true
 */
export function permissionsMeet(requirement: Requirement, granted: Readonly<Record<string, Level>>): boolean {
  for (const alternative of requirement) {
    let met = true;
    for (const slug in alternative) {
      if (!levelCovers(Object.hasOwn(granted, slug) ? granted[slug] : undefined, alternative[slug]!)) {
        met = false;
        break;
      }
    }
    if (met) return true;
  }
  return false;
}

/**
 * Per alternative, the scopes `held` (already closed under implication) lacks.
 * @example
 * import { heldScopes, missingScopes, shippedTables } from 'tollgate/policy';
 * missingScopes([['admin:org', 'repo']], heldScopes(['repo'], shippedTables().scopeClosure)); // [['admin:org']]
 */
export function missingScopes(requirement: ScopeRequirement, held: ReadonlySet<string>): string[][] {
  return requirement.map((alternative) => alternative.filter((scope) => !held.has(scope)));
}

/**
 * True when some alternative's scopes are all in `held` (closed under implication).
 * @example
 * import { heldScopes, scopesMeet, shippedTables } from 'tollgate/policy';
 * scopesMeet([['public_repo']], heldScopes(['repo'], shippedTables().scopeClosure)); // true: repo implies public_repo
 */
export function scopesMeet(requirement: ScopeRequirement, held: ReadonlySet<string>): boolean {
  return requirement.some((alternative) => alternative.every((scope) => held.has(scope)));
}

/**
 * The alternative with the fewest missing items (the first one on a tie), or undefined when the
 * requirement has no alternative at all.
 * @example
 * import { smallestMissing } from 'tollgate/policy';
 * smallestMissing([{ a: 'read', b: 'read' }, { c: 'write' }]); // { c: 'write' }
 */
export function smallestMissing<T extends object>(missing: readonly T[]): T | undefined {
  let best: T | undefined;
  let bestSize = Number.POSITIVE_INFINITY;
  for (const alternative of missing) {
    const size = Array.isArray(alternative) ? alternative.length : Object.keys(alternative).length;
    if (size < bestSize) {
      best = alternative;
      bestSize = size;
    }
  }
  return best;
}

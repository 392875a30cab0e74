/** The classic scope hierarchy, closed under implication once at load. */

/**
 * Maps each scope to itself plus every scope it implies, transitively (cycles are harmless).
 * @example
 * import { closeScopes } from 'tollgate/policy';
 * closeScopes({ 'admin:org': { implies: ['write:org'] }, 'write:org': { implies: ['read:org'] }, 'read:org': { implies: [] } })
 *   .get('admin:org'); // Set { 'admin:org', 'write:org', 'read:org' }
 */
export function closeScopes(
  scopes: Readonly<Record<string, { readonly implies: readonly string[] }>>,
): Map<string, ReadonlySet<string>> {
  const closure = new Map<string, ReadonlySet<string>>();
  for (const scope of Object.keys(scopes)) {
    const reached = new Set<string>([scope]);
    const pending = [scope];
    while (pending.length > 0) {
      const next = pending.pop()!;
      for (const implied of Object.hasOwn(scopes, next) ? scopes[next]!.implies : []) {
        if (!reached.has(implied)) {
          reached.add(implied);
          pending.push(implied);
        }
      }
    }
    closure.set(scope, reached);
  }
  return closure;
}

/**
 * Every scope a token holding `granted` has, implied ones included. Unknown scopes count only as
 * themselves.
 * @example
 * import { heldScopes, shippedTables } from 'tollgate/policy';
 * heldScopes(['repo'], shippedTables().scopeClosure).has('public_repo'); // true
 */
export function heldScopes(
  granted: readonly string[],
  closure: ReadonlyMap<string, ReadonlySet<string>>,
): Set<string> {
  const held = new Set<string>();
  for (const scope of granted) {
    const implied = closure.get(scope);
    if (implied === undefined) held.add(scope);
    else for (const each of implied) held.add(each);
  }
  return held;
}

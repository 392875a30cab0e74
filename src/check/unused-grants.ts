/** What a token holds that no call needs: each scope or permission whose removal leaves every need as met. */

import type { Level, Token } from '../core/token.js';
import type { Policy } from '../policy/authorize.js';
import { permissionsMeet, scopesMeet } from '../policy/requirement.js';
import { heldScopes } from '../policy/scope-closure.js';
import type { PermissionNeed, ScopeNeed } from './least-grant.js';

/**
 * What `token` holds that no need requires: each scope or permission whose removal (or, for
 * `write`, lowering to `read`) leaves every need as met as it was.
 * @example
 * import { createPolicy, shippedTables } from 'tollgate';
 * import { unusedGrants } from './unused-grants.js';
 * const token = { kind: 'fine-grained', permissions: { issues: 'write', contents: 'read' }, repositories: 'all' } as const;
 * unusedGrants(token, [[{ issues: 'read' }]], [], createPolicy(shippedTables()));
 * // ['issues=write (read suffices)', 'contents=read']
 */
export function unusedGrants(
  token: Token,
  permissionNeeds: readonly PermissionNeed[],
  scopeNeeds: readonly ScopeNeed[],
  policy: Policy,
): string[] {
  if ('scopes' in token) {
    const closure = policy.tables.scopeClosure;
    const met = (scopes: readonly string[]) => {
      const held = heldScopes(scopes, closure);
      return scopeNeeds.map((need) => scopesMeet(need, held));
    };
    const now = met(token.scopes);
    const same = (other: boolean[]) => other.every((value, i) => value === now[i]);
    // One at a time, each removal kept before the next is tried: two scopes that can stand in for
    // each other are not both unused.
    let kept = [...token.scopes];
    const unused: string[] = [];
    for (const scope of token.scopes) {
      const without = kept.filter((s) => s !== scope);
      if (same(met(without))) {
        unused.push(scope);
        kept = without;
      }
    }
    return unused;
  }
  if (!('permissions' in token)) return [];
  const granted = token.permissions;
  const met = (candidate: Readonly<Record<string, Level>>) =>
    permissionNeeds.map((need) => permissionsMeet(need, candidate));
  const now = met(granted);
  const same = (other: boolean[]) => other.every((value, i) => value === now[i]);
  const unused: string[] = [];
  // One at a time, keeping each removal (or lowering) before trying the next: of two permissions
  // that stand in for each other, one is needed.
  let kept: Record<string, Level> = { ...granted };
  for (const [slug, level] of Object.entries(granted)) {
    const { [slug]: _, ...without } = kept;
    if (same(met(without))) {
      unused.push(`${slug}=${level}`);
      kept = without;
    } else if (level === 'write' && same(met({ ...without, [slug]: 'read' }))) {
      unused.push(`${slug}=write (read suffices)`);
      kept = { ...without, [slug]: 'read' };
    }
  }
  return unused;
}

/** The service's requirement headers, formatted and parsed back. */
import type { Level, Requirement, ScopeRequirement } from './types.js';

/**
 * `X-Accepted-Service-Permissions`: alternatives joined by `; `, permissions inside one alternative
 * by `,`, each `slug=level` (DESIGN.md section 2).
 * @example
 * import { formatAcceptedPermissions } from 'tollgate/policy';
 * formatAcceptedPermissions([{ issues: 'read' }, { pull_requests: 'read' }]); // 'issues=read; pull_requests=read'
 * formatAcceptedPermissions([{ organization_variables: 'write', metadata: 'read' }]);
 * // 'organization_variables=write,metadata=read'
 */
export function formatAcceptedPermissions(requirement: Requirement): string {
  return requirement
    .map((alternative) =>
      Object.entries(alternative)
        .map(([slug, level]) => `${slug}=${level}`)
        .join(','),
    )
    .join('; ');
}

/**
 * Parses an `X-Accepted-Service-Permissions` value back into the requirement it came from; the
 * empty string is the requirement that needs nothing (`[{}]`).
 * @example
 * import { parseAcceptedPermissions } from 'tollgate/policy';
 * parseAcceptedPermissions('issues=read; pull_requests=read'); // [{ issues: 'read' }, { pull_requests: 'read' }]
 */
export function parseAcceptedPermissions(value: string): Requirement {
  return value.split(';').map((alternative) => {
    const set: Record<string, Level> = {};
    for (const item of alternative.split(',')) {
      const trimmed = item.trim();
      if (trimmed === '') continue;
      const [slug, level] = trimmed.split('=');
      if (slug && (level === 'read' || level === 'write')) set[slug] = level;
    }
    return set;
  });
}

/**
 * `X-Accepted-OAuth-Scopes`: alternatives joined by `, ` as the service lists them (any one will
 * do); scopes needed together inside one alternative are joined by `+` (tollgate's notation: the
 * service's header has no form for "both").
 * @example
 * import { formatAcceptedScopes } from 'tollgate/policy';
 * formatAcceptedScopes([['notifications'], ['repo']]); // 'notifications, repo'
 * formatAcceptedScopes([['admin:org', 'repo']]); // 'admin:org+repo'
 */
export function formatAcceptedScopes(requirement: ScopeRequirement): string {
  return requirement.map((alternative) => alternative.join('+')).join(', ');
}

/**
 * Parses an `X-Accepted-OAuth-Scopes` value in the form `formatAcceptedScopes` writes.
 * @example
 * import { parseAcceptedScopes } from 'tollgate/policy';
 * parseAcceptedScopes('notifications, repo'); // [['notifications'], ['repo']]
 */
export function parseAcceptedScopes(value: string): ScopeRequirement {
  return value.split(',').map((alternative) =>
    alternative
      .split('+')
      .map((scope) => scope.trim())
      .filter((scope) => scope !== ''),
  );
}

/** Token files (YAML or JSON) turned into Tokens, checked against the permission and scope catalogs. */

import type { Issue } from '../core/issue.js';
import { didYouMean } from '../core/suggest.js';
import type { Level, Token } from '../core/token.js';
import type { PolicyTables } from '../policy/tables.js';
import { parseDataFile } from './json-document.js';
import { validateDocument } from './schema-validator.js';

interface RawToken {
  readonly kind: Token['kind'];
  readonly scopes?: readonly string[];
  readonly permissions?: Readonly<Record<string, Level>>;
  readonly repositories?: 'all' | readonly string[];
  readonly user?: string;
  readonly installation?: string | number;
  readonly app?: string | number;
  readonly repository?: string;
  readonly ip?: string;
  readonly repositories_count?: number;
  readonly users_count?: number;
  readonly enterprise_cloud?: boolean;
}

const SCOPED = new Set(['classic', 'oauth-app']);
const PERMITTED = new Set(['fine-grained', 'app-user', 'app-installation', 'workflow']);

/**
 * Parses a token file: `kind`, `scopes` or `permissions` (`{slug: level}`), `repositories` (`all`
 * or a list of `owner/repo`) and identity facts. Returns the token or every problem found.
 * @example
 * import { shippedTables } from 'tollgate';
 * import { parseTokenText } from 'tollgate/tables';
 * parseTokenText('kind: fine-grained\npermissions: {issues: read}\n', 'ci.yaml', shippedTables()).token;
 * // { kind: 'fine-grained', permissions: { issues: 'read' }, repositories: 'all' }
 */
export function parseTokenText(
  text: string,
  file: string,
  tables: PolicyTables,
): { token?: Token; issues: Issue[] } {
  // A `.json` token file is read with the JSON parser, anything else as YAML.
  const document = parseDataFile(text, file);
  const schemaIssues = validateDocument(document, 'token');
  if (schemaIssues.length > 0) return { issues: schemaIssues };
  const raw = document.value as RawToken;
  const issues: Issue[] = [];
  const at = (path: (string | number)[], key = false) => document.locate(path, { key });
  if (raw.scopes !== undefined && !SCOPED.has(raw.kind))
    issues.push({
      code: 'unexpected_field',
      message: `a ${raw.kind} token has no \`scopes\``,
      hint: 'scopes belong to classic and oauth-app tokens; use `permissions`',
      path: ['scopes'],
      source: at(['scopes'], true),
    });
  if (raw.permissions !== undefined && !PERMITTED.has(raw.kind))
    issues.push({
      code: 'unexpected_field',
      message: `a ${raw.kind} token has no \`permissions\``,
      hint: 'permissions belong to fine-grained, app-user, app-installation and workflow tokens',
      path: ['permissions'],
      source: at(['permissions'], true),
    });
  const scopeNames = [...tables.scopeClosure.keys()];
  (raw.scopes ?? []).forEach((scope, i) => {
    if (!tables.scopeClosure.has(scope))
      issues.push({
        code: 'unknown_scope',
        message: `unknown scope \`${scope}\`${didYouMean(scope, scopeNames)}`,
        hint: `valid scopes: ${scopeNames.join(', ')}`,
        path: ['scopes', i],
        source: at(['scopes', i]),
      });
  });
  const slugs = [...tables.permissions.keys()];
  for (const [slug, level] of Object.entries(raw.permissions ?? {})) {
    const info = tables.permissions.get(slug);
    if (info === undefined)
      issues.push({
        code: 'unknown_permission',
        message: `unknown permission \`${slug}\`${didYouMean(slug, slugs)}`,
        hint: `valid permissions: ${slugs.join(', ')}`,
        path: ['permissions', slug],
        source: at(['permissions', slug], true),
      });
    else if (!info.levels.includes(level))
      issues.push({
        code: 'unknown_level',
        message: `permission \`${slug}\` has no level \`${level}\``,
        hint: `valid levels: ${info.levels.join(', ')}`,
        path: ['permissions', slug],
        source: at(['permissions', slug]),
      });
  }
  if (issues.length > 0) return { issues };
  const identity = {
    ...(raw.user === undefined ? {} : { user: raw.user }),
    ...(raw.installation === undefined ? {} : { installation: String(raw.installation) }),
    ...(raw.app === undefined ? {} : { app: String(raw.app) }),
    ...(raw.repository === undefined ? {} : { repository: raw.repository }),
    ...(raw.ip === undefined ? {} : { ip: raw.ip }),
    ...(raw.repositories_count === undefined ? {} : { repositoriesCount: raw.repositories_count }),
    ...(raw.users_count === undefined ? {} : { usersCount: raw.users_count }),
    ...(raw.enterprise_cloud === undefined ? {} : { enterpriseCloud: raw.enterprise_cloud }),
  };
  if (raw.kind === 'classic' || raw.kind === 'oauth-app')
    return { token: { kind: raw.kind, scopes: raw.scopes ?? [], ...identity }, issues };
  if (raw.kind === 'client-credentials' || raw.kind === 'anonymous')
    return { token: { kind: raw.kind, ...identity }, issues };
  return {
    token: {
      kind: raw.kind,
      permissions: raw.permissions ?? {},
      repositories: raw.repositories ?? 'all',
      ...identity,
    },
    issues,
  };
}

import { article } from '../core/article.js';
import { didYouMean } from '../core/suggest.js';
import type { PolicyTables } from '../policy.js';
import { type Level, TOKEN_KINDS, type Token, type TokenKind } from '../policy.js';
import { loadTokenFile } from '../tables.js';
import { oneOf } from './args.js';
import { UsageError } from './io.js';

/** The token flags as parsed. */
export interface TokenFlags {
  readonly token?: string;
  readonly kind?: string;
  readonly scope?: readonly string[];
  readonly permission?: readonly string[];
  readonly repository?: readonly string[];
}

/** Reads a token file, or assembles a token from flags; anonymous when neither is given. */
export function tokenFromFlags(flags: TokenFlags, tables: PolicyTables): Token {
  if (flags.token !== undefined) {
    if (flags.kind !== undefined || flags.scope?.length || flags.permission?.length)
      throw new UsageError('use either `--token FILE` or `--kind` with `--scope`/`--permission`, not both');
    return loadTokenFile(flags.token, tables);
  }
  const kind: TokenKind =
    flags.kind === undefined ? 'anonymous' : oneOf('token kind', flags.kind, TOKEN_KINDS);
  const scopes = flags.scope ?? [];
  const permissionArgs = flags.permission ?? [];
  const scopeNames = [...tables.scopeClosure.keys()];
  for (const scope of scopes)
    if (!tables.scopeClosure.has(scope))
      throw new UsageError(
        `unknown scope \`${scope}\`${didYouMean(scope, scopeNames)}; valid scopes: ${scopeNames.join(', ')}`,
      );
  const permissions: Record<string, Level> = {};
  const slugs = [...tables.permissions.keys()];
  for (const arg of permissionArgs) {
    const [slug = '', level = 'read', ...rest] = arg.split('=');
    const info = tables.permissions.get(slug);
    if (info === undefined)
      throw new UsageError(
        `unknown permission \`${slug}\`${didYouMean(slug, slugs)}; valid permissions: ${slugs.join(', ')}`,
      );
    if (rest.length > 0 || !(info.levels as readonly string[]).includes(level))
      throw new UsageError(
        `invalid level in \`${arg}\`; write \`${slug}=${info.levels.join('` or `' + slug + '=')}\``,
      );
    permissions[slug] = level as Level;
  }
  const scoped = kind === 'classic' || kind === 'oauth-app';
  const permitted =
    kind === 'fine-grained' || kind === 'app-user' || kind === 'app-installation' || kind === 'workflow';
  if (scopes.length > 0 && !scoped)
    throw new UsageError(
      `${article(kind)} ${kind} token has no scopes; \`--scope\` goes with --kind classic or oauth-app`,
    );
  if (permissionArgs.length > 0 && !permitted)
    throw new UsageError(
      `${article(kind)} ${kind} token has no permissions; \`--permission\` goes with --kind fine-grained, app-user, app-installation or workflow`,
    );
  if (scoped) return { kind, scopes } as Token;
  if (permitted) {
    for (const name of flags.repository ?? [])
      if (!/^[^/\s]+\/[^/\s]+$/.test(name))
        throw new UsageError(
          `invalid repository \`${name}\`; write \`owner/repo\`, e.g. \`--repository acme/app\``,
        );
    const repositories = flags.repository?.length ? flags.repository : 'all';
    return { kind, permissions, repositories } as Token;
  }
  return { kind } as Token;
}

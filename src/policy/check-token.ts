/** The shape a Token must have before the evaluator reads it; checked once per request. */
import type { Token } from './types.js';

function isStringList(value: unknown): value is readonly string[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false;
  return true;
}

/**
 * Why `token` is not a usable Token, or null when it is. The evaluator throws
 * TOLLGATE_INVALID_TOKEN with this reason rather than fail on a property deep inside.
 * @example
 * import { tokenProblem } from './check-token.js';
 * tokenProblem({ kind: 'classic', scopes: 'repo' }); // 'a classic token needs `scopes`, a list of strings'
 */
export function tokenProblem(token: unknown): string | null {
  if (token === null || typeof token !== 'object') return 'a token is an object with a `kind`';
  const { kind } = token as { kind?: unknown };
  switch (kind) {
    case 'anonymous':
    case 'client-credentials':
      return null;
    case 'classic':
    case 'oauth-app':
      return isStringList((token as { scopes?: unknown }).scopes)
        ? null
        : `a ${kind} token needs \`scopes\`, a list of strings`;
    case 'fine-grained':
    case 'app-user':
    case 'app-installation':
    case 'workflow': {
      const { permissions, repositories } = token as { permissions?: unknown; repositories?: unknown };
      if (permissions === null || typeof permissions !== 'object' || Array.isArray(permissions))
        return `a ${kind} token needs \`permissions\`, an object of \`slug: level\``;
      if (repositories !== 'all' && !isStringList(repositories))
        return `a ${kind} token needs \`repositories\`: \`'all'\` or a list of \`owner/repo\``;
      return null;
    }
    default:
      return `invalid token kind \`${String(kind)}\``;
  }
}

/** True for a value that passed `tokenProblem`. */
export function isToken(token: unknown): token is Token {
  return tokenProblem(token) === null;
}

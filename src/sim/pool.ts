/**
 * Pools of users or installations: one caller of a scenario run by N identities, each with its own
 * budget. A user's tokens share that user's budget (seed 000, "Primary rate limits": "combined over
 * all those tokens"), so `tokensPerUser` adds callers, not budget.
 */
import { article } from '../core/article.js';
import type { TokenKind } from '../core/token.js';

/**
 * A caller's pool: `users` distinct users (user token kinds) or `installations` distinct app
 * installations, sharing the caller's `work` and `rate` evenly; each token keeps the caller's
 * `workers`.
 * @example
 * import type { Pool } from './pool.js';
 * const fleet: Pool = { users: 4, tokensPerUser: 2 }; // 8 callers on 4 budgets
 */
export type Pool =
  | { readonly users: number; readonly tokensPerUser?: number }
  | { readonly installations: number };

/** The kinds a pool of users may hold: the user token kinds (counted per user). */
export const USER_KINDS: readonly TokenKind[] = ['classic', 'fine-grained', 'app-user', 'oauth-app'];

/** What a pool is made of, for messages and summaries. */
export type PoolUnit = 'users' | 'installations';

/**
 * The unit of a pool and its size.
 * @example
 * import { poolSize } from './pool.js';
 * poolSize({ installations: 3 }); // { unit: 'installations', size: 3, tokensPerMember: 1 }
 */
export function poolSize(pool: Pool): { unit: PoolUnit; size: number; tokensPerMember: number } {
  return 'users' in pool
    ? { unit: 'users', size: pool.users, tokensPerMember: pool.tokensPerUser ?? 1 }
    : { unit: 'installations', size: pool.installations, tokensPerMember: 1 };
}

/** Most callers one pool may expand to. */
export const MAX_POOL_CALLERS = 10_000;

/**
 * What is wrong with a pool on a token of `kind`: one message per problem, empty when sound.
 * @example
 * import { poolProblems } from './pool.js';
 * poolProblems({ installations: 3 }, 'classic');
 * // ['a pool of `installations` needs an `app-installation` token, not `classic`; a `classic` token pools as `users`']
 */
export function poolProblems(pool: Pool, kind: TokenKind): string[] {
  const { unit, size, tokensPerMember } = poolSize(pool);
  const problems: string[] = [];
  const wanted = unit === 'users' ? USER_KINDS : ['app-installation'];
  if (!wanted.includes(kind)) {
    const instead = USER_KINDS.includes(kind)
      ? `; ${article(kind)} \`${kind}\` token pools as \`users\``
      : kind === 'app-installation'
        ? '; an `app-installation` token pools as `installations`'
        : `; ${article(kind)} \`${kind}\` token cannot be pooled (pools are of users or installations)`;
    problems.push(
      `a pool of \`${unit}\` needs ${unit === 'users' ? `a user token (${USER_KINDS.join(', ')})` : 'an `app-installation` token'}, not \`${kind}\`${instead}`,
    );
  }
  if (!Number.isInteger(size) || size < 1)
    problems.push(`\`${unit}\` must be a whole number of at least 1, got ${size}`);
  if (!Number.isInteger(tokensPerMember) || tokensPerMember < 1)
    problems.push(`\`tokens_per_user\` must be a whole number of at least 1, got ${tokensPerMember}`);
  if (problems.length === 0 && size * tokensPerMember > MAX_POOL_CALLERS)
    problems.push(`the pool makes ${size * tokensPerMember} callers; at most ${MAX_POOL_CALLERS}`);
  return problems;
}

/**
 * `total` shared as evenly as whole numbers allow among `parts`, the first ones taking the rest.
 * @example
 * import { shareOf } from './pool.js';
 * [0, 1, 2].map((i) => shareOf(10, 3, i)); // [4, 3, 3]
 */
export function shareOf(total: number, parts: number, index: number): number {
  return Math.floor(total / parts) + (index < total % parts ? 1 : 0);
}

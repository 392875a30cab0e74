/** Who a request is counted against: the identity key and primary limits of a token. */
import { TollgateError } from '../core/errors.js';
import type { IdentityFacts, TokenKind } from '../core/token.js';
import { addressIdentity } from './ip-address.js';
import type { LimitsConfig } from './limits-config.js';
import { type CallerClass, type PrimaryLimits, primaryLimits } from './primary-limit.js';

/**
 * A token as the limits see it: its kind and identity facts (see `IdentityFacts`).
 * @example
 * import type { LimitsCaller } from 'tollgate/limits';
 * const caller: LimitsCaller = { kind: 'workflow', repository: 'octo/app' };
 */
export type LimitsCaller = IdentityFacts & { readonly kind: TokenKind };

/**
 * The identity a request is counted against, with the caller's limits on every resource.
 * @example
 * import { createLimiter } from 'tollgate';
 * import type { LimitsIdentity } from 'tollgate/limits';
 * const limiter = createLimiter();
 * const identity: LimitsIdentity = limiter.identify({ kind: 'classic', user: 'octocat' }); // identity.key === 'user:octocat'
 */
export interface LimitsIdentity {
  /** Stable store key, e.g. `user:octocat`, `ip:203.0.113.7`, `repository:octo/app`. */
  readonly key: string;
  readonly caller: CallerClass;
  readonly limits: PrimaryLimits;
}

/** Token kind -> caller class and the identity fact that keys it (DESIGN.md section 3, Identity). */
const CLASSES: Readonly<Record<TokenKind, readonly [CallerClass, keyof IdentityFacts, string]>> = {
  anonymous: ['anonymous', 'ip', 'ip'],
  // seed 000, "Primary rate limits": user tokens share one limit "combined over all those tokens";
  // "App user access tokens count against the authenticated user's limit".
  classic: ['user', 'user', 'user'],
  'fine-grained': ['user', 'user', 'user'],
  'app-user': ['user', 'user', 'user'],
  'oauth-app': ['user', 'user', 'user'],
  'app-installation': ['installation', 'installation', 'installation'],
  'client-credentials': ['client-credentials', 'app', 'app'],
  workflow: ['workflow', 'repository', 'repository'],
};

/** ASCII letters to lower case only: `K` (the Kelvin sign) must not become the login `k`. */
const asciiLower = (text: string): string => text.replace(/[A-Z]+/g, (run) => run.toLowerCase());

/**
 * The one spelling of an identity fact, so a caller cannot hold two budgets under two spellings:
 * an address by `addressIdentity` (IPv6 by network), a login in ASCII lower case (the service's
 * logins are case-insensitive: `Alice` and `alice` are one user), a repository in lower case
 * (like the seed's `owner`/`repo`). Installation and app ids are opaque: compared exactly.
 */
function identityId(caller: CallerClass, value: string, config: LimitsConfig): string {
  if (caller === 'anonymous') return addressIdentity(value, config.identity?.ipv6Prefix ?? 56);
  if (caller === 'user') return asciiLower(value);
  if (caller === 'workflow') return value.toLowerCase();
  return value;
}

/**
 * The identity of a token for the limits: anonymous callers by IP (one spelling per address, IPv6
 * by its /56 network unless `identity.ipv6_prefix` says otherwise), user tokens by user login
 * (case-insensitive, shared across that user's tokens), installations by installation, client
 * credentials by app (both exactly), the workflow token by repository (case-insensitive).
 * Throws `TOLLGATE_INVALID_TOKEN` when the fact that keys the identity is missing.
 * @example
 * import { defaultLimits, identityOf } from 'tollgate/limits';
 * identityOf({ kind: 'app-installation', installation: '42', repositoriesCount: 50, usersCount: 30 }, defaultLimits());
 * // { key: 'installation:42', caller: 'installation', limits: { core: 7000, search: 30, graphql: 7000, lfs: 3000 } }
 */
export function identityOf(token: LimitsCaller, config: LimitsConfig): LimitsIdentity {
  if (typeof token !== 'object' || token === null)
    throw new TollgateError(
      'TOLLGATE_INVALID_TOKEN',
      `limits: expected a token object with a \`kind\`, got \`${token === null ? 'null' : typeof token}\``,
    );
  const caller = callerClassOf(token.kind);
  const [, fact, prefix] = CLASSES[token.kind];
  const value = token[fact];
  if (typeof value !== 'string' || value.length === 0) {
    throw new TollgateError(
      'TOLLGATE_INVALID_TOKEN',
      `limits: a \`${token.kind}\` token needs \`${fact}\` to be counted per ${prefix}`,
    );
  }
  const id = identityId(caller, value, config);
  return { key: `${prefix}:${id}`, caller, limits: primaryLimits({ ...token, caller }, config) };
}

/**
 * The caller class of a token kind: who its requests are counted against.
 * @example
 * import { callerClassOf } from 'tollgate/limits';
 * callerClassOf('fine-grained'); // 'user'
 */
export function callerClassOf(kind: TokenKind): CallerClass {
  // Own keys only: `CLASSES['__proto__']` or `CLASSES['toString']` is not undefined.
  if (typeof kind !== 'string' || !Object.hasOwn(CLASSES, kind)) {
    throw new TollgateError(
      'TOLLGATE_INVALID_TOKEN',
      `limits: unknown token kind \`${String(kind)}\` (valid: ${Object.keys(CLASSES).join(', ')})`,
    );
  }
  return CLASSES[kind][0];
}

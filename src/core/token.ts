/** Who calls: token kinds, the facts a token carries, and permission levels. */

/** Access level of a fine-grained permission; `write` implies `read`. */
export type Level = 'read' | 'write';

/**
 * Token kinds of DESIGN.md section 2: `classic` (personal access token, classic), `fine-grained`
 * (PAT), `app-user` (UAT), `app-installation` (IAT), `oauth-app`, `workflow` (the built-in
 * SERVICE_TOKEN), `client-credentials` (OAuth app id and secret over basic auth) and `anonymous`.
 */
export type TokenKind =
  | 'classic'
  | 'fine-grained'
  | 'app-user'
  | 'app-installation'
  | 'oauth-app'
  | 'workflow'
  | 'client-credentials'
  | 'anonymous';

/**
 * Every token kind, in a stable order (seed 001's token kinds, plus `anonymous`).
 * @example
 * import { TOKEN_KINDS } from 'tollgate/policy';
 * TOKEN_KINDS.includes('fine-grained'); // true
 */
export const TOKEN_KINDS: readonly TokenKind[] = [
  'classic',
  'fine-grained',
  'app-user',
  'app-installation',
  'oauth-app',
  'workflow',
  'client-credentials',
  'anonymous',
];

/** Kinds that carry classic scopes. */
export const SCOPED_KINDS: readonly TokenKind[] = ['classic', 'oauth-app'];
/** Kinds that carry fine-grained permissions and a repository selection. */
export const PERMISSION_KINDS: readonly TokenKind[] = [
  'fine-grained',
  'app-user',
  'app-installation',
  'workflow',
];

/** Identity facts the limits use; the policy ignores them. */
export interface IdentityFacts {
  /** The user a user token acts for (classic, fine-grained, app-user, oauth-app). */
  readonly user?: string;
  /** The installation of an app-installation token. */
  readonly installation?: string;
  /** The app of a client-credentials token. */
  readonly app?: string;
  /** `owner/repo` of a workflow token. */
  readonly repository?: string;
  /** Originating IP address (anonymous callers). */
  readonly ip?: string;
  /** Repositories an installation is on (installation limit formula). */
  readonly repositoriesCount?: number;
  /** Organization users of an installation (installation limit formula). */
  readonly usersCount?: number;
  /** Owned by or acting within an enterprise-cloud organization. */
  readonly enterpriseCloud?: boolean;
}

/** A token with classic scopes. */
export interface ScopedToken extends IdentityFacts {
  readonly kind: 'classic' | 'oauth-app';
  readonly scopes: readonly string[];
}

/** A token with fine-grained permissions and a repository selection. */
export interface PermissionToken extends IdentityFacts {
  readonly kind: 'fine-grained' | 'app-user' | 'app-installation' | 'workflow';
  readonly permissions: Readonly<Record<string, Level>>;
  /** `'all'` or a list of `owner/repo` names (compared case-insensitively). */
  readonly repositories: 'all' | readonly string[];
}

/** A caller with no permissions of its own. */
export interface BareToken extends IdentityFacts {
  readonly kind: 'client-credentials' | 'anonymous';
}

/** Who is calling. */
export type Token = ScopedToken | PermissionToken | BareToken;

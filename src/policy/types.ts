/** The vocabulary of the policy evaluator: requirements, tokens, requests, contexts and decisions. */

/** Access level of a fine-grained permission; `write` implies `read`. */
export type Level = 'read' | 'write';

/**
 * A fine-grained requirement: a list of alternatives (OR), each a set of permissions that are all
 * needed (AND). `[{ issues: 'read' }, { pull_requests: 'read' }]` means "issues read, or pull
 * requests read". `[{}]` needs nothing; `[]` can never be met.
 */
export type Requirement = readonly Readonly<Record<string, Level>>[];

/** A classic-scope requirement in the same form: alternatives (OR) of scope sets (AND). */
export type ScopeRequirement = readonly (readonly string[])[];

/** HTTP methods the endpoint table uses. */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export const HTTP_METHODS: readonly HttpMethod[] = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
];

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

/** What is being asked for. */
export interface PolicyRequest {
  readonly method: string;
  /** The raw request target: path and optional query string, still percent-encoded. */
  readonly path: string;
  /** Value of the `X-Service-Api-Version` header, if sent. */
  readonly apiVersion?: string;
}

/** Facts about the resource that only the server knows. */
export interface ResourceContext {
  /** Visibility of the repository or organization resource; default `private`. */
  readonly visibility?: 'public' | 'private';
  /** The caller is an owner of the organization in the path; default false. */
  readonly organizationOwner?: boolean;
}

/** Stable reason codes of a Decision, in the order the evaluator checks them. */
export type ReasonCode =
  | 'bad_path'
  | 'unknown_endpoint'
  | 'pass_through'
  | 'unsupported_api_version'
  | 'authentication_required'
  | 'not_found'
  | 'token_kind_not_accepted'
  | 'organization_owner_required'
  | 'insufficient_permission'
  | 'insufficient_scope'
  | 'requirement_not_shown'
  | 'public_resource'
  | 'allowed';

/** The smallest addition that would allow a denied request. */
export type Addition =
  | { readonly kind: 'permissions'; readonly permissions: Readonly<Record<string, Level>> }
  | { readonly kind: 'scopes'; readonly scopes: readonly string[] }
  | { readonly kind: 'none' };

/** The evaluator's answer: never thrown, always returned. */
export interface Decision {
  readonly allowed: boolean;
  readonly status: number;
  readonly reason: ReasonCode;
  /** One line, lowercase start. */
  readonly message: string;
  /** The matched endpoint template, e.g. `GET /repos/{owner}/{repo}/issues/events/{event_id}`. */
  readonly endpoint: string | null;
  /** Decoded path parameters. */
  readonly params: Readonly<Record<string, string>>;
  /** What the endpoint needs for this token's kind of credential. */
  readonly requirement: {
    readonly fineGrained: Requirement | null;
    readonly classic: ScopeRequirement | null;
  };
  /** Per alternative, what the token lacks (fine-grained or classic, by token kind). */
  readonly missing: Requirement | ScopeRequirement;
  /** The smallest addition that would allow the request, when adding permissions or scopes can. */
  readonly addition: Addition;
  /** False when the table is not sure (starred endpoints, facts the seeds do not show). */
  readonly certain: boolean;
  /** Response headers the service sends with this answer. */
  readonly headers: Readonly<Record<string, string>>;
}

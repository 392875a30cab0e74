/** The vocabulary of the policy evaluator: requirements, requests, contexts and decisions. */
import type { Level } from '../core/token.js';

export type { HttpMethod } from '../core/http-method.js';
export { HTTP_METHODS } from '../core/http-method.js';
export type {
  BareToken,
  IdentityFacts,
  Level,
  PermissionToken,
  ScopedToken,
  Token,
  TokenKind,
} from '../core/token.js';
export { PERMISSION_KINDS, SCOPED_KINDS, TOKEN_KINDS } from '../core/token.js';

/**
 * A fine-grained requirement: a list of alternatives (OR), each a set of permissions that are all
 * needed (AND). `[{ issues: 'read' }, { pull_requests: 'read' }]` means "issues read, or pull
 * requests read". `[{}]` needs nothing; `[]` can never be met.
 */
export type Requirement = readonly Readonly<Record<string, Level>>[];

/** A classic-scope requirement in the same form: alternatives (OR) of scope sets (AND). */
export type ScopeRequirement = readonly (readonly string[])[];

/** What is being asked for. */
export interface PolicyRequest {
  readonly method: string;
  /** The raw request target: path and optional query string, still percent-encoded. */
  readonly path: string;
  /** Value of the `X-Service-Api-Version` header, if sent (`null` or `undefined`: not sent). */
  readonly apiVersion?: string | null;
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

/** Options of the evaluator, each a documented choice where the seeds are silent. */
import { checkOptions } from '../core/check-options.js';
import { TollgateError } from '../core/errors.js';
import { POLICY_OPTIONS } from './policy-options-spec.js';

/** Names of the requirement headers a decision carries. */
export interface HeaderNames {
  readonly acceptedPermissions: string;
  readonly oauthScopes: string;
  readonly acceptedOAuthScopes: string;
}

/** How `createPolicy` behaves where the specification leaves a choice. */
export interface PolicyOptions {
  /** An endpoint not in the table: `deny` (404, the default: fail closed) or `pass-through`. */
  readonly unknownEndpoint?: 'deny' | 'pass-through';
  /** Accepted `X-Service-Api-Version` values; seed 000 "Versioning" shows only `2022-11-28`. */
  readonly apiVersions?: readonly string[];
  /**
   * A classic token on an endpoint whose classic scopes the seeds do not show: `deny` (403
   * `requirement_not_shown`, the default: fail closed) or `allow`. Either way `certain` is false.
   */
  readonly unshownScopes?: 'deny' | 'allow';
  /**
   * The built-in workflow token carries permissions like an installation token; the seeds do not
   * say which endpoints accept it. `app-installation` (default) accepts it wherever an
   * installation token is accepted; `deny` refuses it everywhere.
   */
  readonly workflowToken?: 'app-installation' | 'deny';
  /** Header names (lowercase is fine; HTTP header names are case-insensitive). */
  readonly headerNames?: Partial<HeaderNames>;
}

/** Options with every default applied. */
export interface ResolvedPolicyOptions {
  readonly unknownEndpoint: 'deny' | 'pass-through';
  readonly apiVersions: ReadonlySet<string>;
  readonly unshownScopes: 'deny' | 'allow';
  readonly workflowToken: 'app-installation' | 'deny';
  readonly headerNames: HeaderNames;
}

export const DEFAULT_HEADER_NAMES: HeaderNames = {
  acceptedPermissions: 'X-Accepted-Service-Permissions',
  oauthScopes: 'X-OAuth-Scopes',
  acceptedOAuthScopes: 'X-Accepted-OAuth-Scopes',
};

function choice<T extends string>(name: string, value: T | undefined, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (choices.includes(value)) return value;
  throw new TollgateError(
    'TOLLGATE_INVALID_OPTION',
    `policy options: invalid \`${name}\` \`${String(value)}\`; valid choices: ${choices.join(', ')}`,
  );
}

/** Applies defaults and rejects invalid options with a TOLLGATE_INVALID_OPTION error. */
export function resolvePolicyOptions(options: PolicyOptions = {}): ResolvedPolicyOptions {
  checkOptions(POLICY_OPTIONS, options);
  const versions = options.apiVersions ?? ['2022-11-28'];
  if (!Array.isArray(versions) || versions.some((v) => typeof v !== 'string' || v === ''))
    throw new TollgateError(
      'TOLLGATE_INVALID_OPTION',
      'policy options: `apiVersions` must be a list of non-empty strings',
    );
  return {
    unknownEndpoint: choice('unknownEndpoint', options.unknownEndpoint, ['deny', 'pass-through'], 'deny'),
    apiVersions: new Set(versions),
    unshownScopes: choice('unshownScopes', options.unshownScopes, ['deny', 'allow'], 'deny'),
    workflowToken: choice(
      'workflowToken',
      options.workflowToken,
      ['app-installation', 'deny'],
      'app-installation',
    ),
    headerNames: { ...DEFAULT_HEADER_NAMES, ...options.headerNames },
  };
}

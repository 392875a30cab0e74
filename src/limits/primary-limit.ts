/** The primary limit of a caller on each resource, from its caller class and identity facts. */
import type { TokenKind } from '../core/token.js';
import { installationLimit } from './installation-limit.js';
import type { LimitsConfig, LimitsResource } from './limits-config.js';

/**
 * Who pays for a request, as the primary table of seed 000 groups callers: by IP, by user (all of
 * a user's tokens together), by installation, by OAuth app, by repository (workflow token).
 * @example
 * import { type CallerClass, callerClassOf } from 'tollgate/limits';
 * const caller: CallerClass = callerClassOf('app-user'); // 'user'
 */
export type CallerClass = 'anonymous' | 'user' | 'installation' | 'client-credentials' | 'workflow';

/**
 * The facts of a caller that the primary limits depend on.
 * @example
 * import type { CallerFacts } from 'tollgate/limits';
 * const facts: CallerFacts = { caller: 'installation', repositoriesCount: 50, usersCount: 30 };
 */
export interface CallerFacts {
  readonly caller: CallerClass;
  /**
   * The token kind. For a user, the enterprise-cloud number applies only to `app-user` and
   * `oauth-app` (acting through an app); without `kind`, a user gets the plain user limit.
   */
  readonly kind?: TokenKind;
  readonly enterpriseCloud?: boolean;
  readonly repositoriesCount?: number;
  readonly usersCount?: number;
}

/**
 * Requests per window of each resource for one caller.
 * @example
 * import { defaultLimits, type PrimaryLimits, primaryLimits } from 'tollgate/limits';
 * const limits: PrimaryLimits = primaryLimits({ caller: 'anonymous' }, defaultLimits()); // limits.core === 60
 */
export type PrimaryLimits = Readonly<Record<LimitsResource, number>>;

function coreLimit(facts: CallerFacts, config: LimitsConfig): number {
  const callers = config.primary.callers;
  const ec = facts.enterpriseCloud === true;
  switch (facts.caller) {
    case 'anonymous':
      return callers.anonymous.limit;
    case 'user':
      // seed 000, "Primary rate limits": 15,000 for a "user acting through an app or OAuth app
      // owned or approved by an enterprise-cloud organization"; personal access tokens (classic,
      // fine-grained) keep 5,000 whatever the organization.
      return ec && (facts.kind === 'app-user' || facts.kind === 'oauth-app')
        ? callers.user.enterpriseCloud
        : callers.user.limit;
    case 'installation':
      return installationLimit(facts, callers.installation);
    case 'client-credentials':
      return ec ? callers.clientCredentials.enterpriseCloud : callers.clientCredentials.limit;
    case 'workflow':
      return ec ? callers.workflow.enterpriseCloud : callers.workflow.limit;
  }
}

/**
 * The primary limit of a caller on every resource: core from the caller table, search, graphql
 * and lfs from their own rows (anonymous or authenticated) or the core number when the table says
 * `same_as_core`.
 * @example
 * import { defaultLimits, primaryLimits } from 'tollgate/limits';
 * primaryLimits({ caller: 'user' }, defaultLimits()); // { core: 5000, search: 30, graphql: 5000, lfs: 3000 }
 */
export function primaryLimits(facts: CallerFacts, config: LimitsConfig): PrimaryLimits {
  const core = coreLimit(facts, config);
  const anonymous = facts.caller === 'anonymous';
  const { search, graphql, lfs } = config.primary.resources;
  return {
    core,
    search: search.sameAsCore ? core : anonymous ? search.anonymous : search.authenticated,
    graphql: graphql.sameAsCore ? core : anonymous ? graphql.anonymous : graphql.authenticated,
    lfs: lfs.sameAsCore ? core : anonymous ? lfs.anonymous : lfs.authenticated,
  };
}

/**
 * The window of a resource in milliseconds: one hour for core, the table's value for the others.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { resourceWindowMs } from './primary-limit.js';
 * resourceWindowMs('lfs', defaultLimits()); // 60000
 */
export function resourceWindowMs(resource: LimitsResource, config: LimitsConfig): number {
  // Named reads, not `resources[resource]`: a keyed read that sees several names goes megamorphic
  // (a V8 stub-cache probe on every request of the hot path).
  const resources = config.primary.resources;
  return resource === 'core'
    ? config.primary.windowMs
    : resource === 'search'
      ? resources.search.windowMs
      : resource === 'graphql'
        ? resources.graphql.windowMs
        : resources.lfs.windowMs;
}

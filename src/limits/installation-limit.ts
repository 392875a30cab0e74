/** The primary limit of an app installation: seed 000's scaling formula. */
import { TollgateError } from '../core/errors.js';
import type { InstallationLimitRule } from './limits-config.js';

/**
 * What the installation formula needs to know about an installation.
 * @example
 * import type { InstallationFacts } from 'tollgate/limits';
 * const facts: InstallationFacts = { repositoriesCount: 50, usersCount: 30 };
 */
export interface InstallationFacts {
  /** Repositories the installation is on. */
  readonly repositoriesCount?: number;
  /** Users of the organization the installation is on. */
  readonly usersCount?: number;
  /** The installation is on an enterprise-cloud organization. */
  readonly enterpriseCloud?: boolean;
}

/**
 * Requests per hour of an installation token: 5,000, plus 50 per repository beyond 20, plus 50 per
 * organization user beyond 20, at most 12,500; 15,000 on an enterprise-cloud organization
 * (seed 000, "Primary rate limits" and "Scaling of installation limits"; the numbers come from
 * `rule`, i.e. data/limits.yaml).
 *
 * Worked example: 50 repositories and 30 users -> 5,000 + 50 x 30 + 50 x 10 = 7,000.
 * @example
 * import { defaultLimits, installationLimit } from 'tollgate/limits';
 * installationLimit({ repositoriesCount: 50, usersCount: 30 }, defaultLimits().primary.callers.installation); // 7000
 */
export function installationLimit(facts: InstallationFacts, rule: InstallationLimitRule): number {
  // Checked even on enterprise cloud: a bad count is a setup mistake wherever it appears.
  const repositoriesCount = count(facts.repositoriesCount, 'repositoriesCount');
  const usersCount = count(facts.usersCount, 'usersCount');
  if (facts.enterpriseCloud === true) return rule.enterpriseCloud;
  const repositories = Math.max(0, repositoriesCount - rule.repositoriesIncluded);
  const users = Math.max(0, usersCount - rule.usersIncluded);
  // The ceiling never lowers the base: "minimum 5,000" holds whatever the table says.
  return Math.max(
    rule.limit,
    Math.min(rule.ceiling, rule.limit + repositories * rule.perRepository + users * rule.perUser),
  );
}

/**
 * A count as the formula needs it: absent is 0; anything but a non-negative integer throws, since
 * NaN (or a string) would make the limit NaN, and a NaN limit denies nothing.
 */
function count(value: unknown, name: string): number {
  if (value === undefined) return 0;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
  throw new TollgateError(
    'TOLLGATE_INVALID_TOKEN',
    `limits: \`${name}\` must be a non-negative integer, got \`${shown}\``,
  );
}

/** Identity facts that change nothing for a token kind: refused, so a scenario never silently ignores one. */
import { article } from '../core/article.js';
import { callerClassOf, type LimitsCaller } from '../limits/identity.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import { primaryLimits } from '../limits/primary-limit.js';

/**
 * The facts of `token` that do not apply to its kind, each as one message naming the fact (in the
 * scenario file's spelling) and the kinds it applies to. `enterprise_cloud` applies where the
 * seed's primary table gives it a number (app-user and oauth-app users, installations, client
 * credentials, workflow tokens; not personal access tokens or anonymous callers): found by
 * asking the limits whether it changes anything. `repositories_count` and `users_count` feed the
 * installation formula only.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { tokenFactProblems } from './token-facts.js';
 * tokenFactProblems({ kind: 'classic', user: 'octocat', enterpriseCloud: true }, defaultLimits());
 * // ['`enterprise_cloud` does not apply to a `classic` token (the seed gives it no enterprise-cloud limit); it applies to app-user, oauth-app, app-installation, client-credentials, workflow']
 */
export function tokenFactProblems(token: LimitsCaller, config: LimitsConfig): string[] {
  const problems: string[] = [];
  const caller = callerClassOf(token.kind);
  if (token.enterpriseCloud !== undefined && !enterpriseCloudApplies(token.kind, config))
    problems.push(
      `\`enterprise_cloud\` does not apply to ${article(token.kind)} \`${token.kind}\` token (the seed gives it no enterprise-cloud limit); it applies to ${ENTERPRISE_KINDS.filter((k) => enterpriseCloudApplies(k, config)).join(', ')}`,
    );
  for (const [fact, name] of [
    ['repositoriesCount', 'repositories_count'],
    ['usersCount', 'users_count'],
  ] as const)
    if (token[fact] !== undefined && caller !== 'installation')
      problems.push(
        `\`${name}\` does not apply to ${article(token.kind)} \`${token.kind}\` token; it feeds the installation formula of \`app-installation\` tokens only`,
      );
  return problems;
}

const ENTERPRISE_KINDS = [
  'classic',
  'fine-grained',
  'app-user',
  'oauth-app',
  'app-installation',
  'client-credentials',
  'workflow',
  'anonymous',
] as const;

/**
 * True when an enterprise-cloud organization changes the primary limit of `kind`.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { enterpriseCloudApplies } from './token-facts.js';
 * enterpriseCloudApplies('fine-grained', defaultLimits()); // false
 */
export function enterpriseCloudApplies(kind: LimitsCaller['kind'], config: LimitsConfig): boolean {
  const caller = callerClassOf(kind);
  const plain = primaryLimits({ caller, kind, enterpriseCloud: false }, config).core;
  return primaryLimits({ caller, kind, enterpriseCloud: true }, config).core !== plain;
}

/** `authorize` over the shipped tables with default options: the ten-line quick start. */
import { createPolicy, type Policy } from './authorize.js';
import { shippedTables } from './shipped-tables.js';
import type { Decision, PolicyRequest, ResourceContext, Token } from './types.js';

let policy: Policy | undefined;

/**
 * Decides one request against the shipped tables with the default options (compiled on first call).
 * @example
 * import { authorize } from 'tollgate';
 * const decision = authorize(
 *   { method: 'GET', path: '/repos/acme/app/issues/events/7' },
 *   { kind: 'fine-grained', permissions: { contents: 'read' }, repositories: 'all' },
 * );
 * decision.status; // 403
 */
export function authorize(request: PolicyRequest, token: Token, context?: ResourceContext): Decision {
  policy ??= createPolicy(shippedTables());
  return policy.authorize(request, token, context);
}

/** What `createPolicy` accepts: one line per option. */
import { defineOptions } from '../core/check-options.js';
import { object, oneOf, text } from '../core/option-rules.js';

const versions = {
  kind: 'test',
  expected: 'a list of non-empty strings',
  test: (v: unknown) => Array.isArray(v) && v.every((item) => typeof item === 'string' && item !== ''),
} as const;

/**
 * The spec `createPolicy` checks its options against, at once.
 * @example
 * import { checkOptions } from '../core/check-options.js';
 * import { POLICY_OPTIONS } from './policy-options-spec.js';
 * checkOptions(POLICY_OPTIONS, { unknownEndpoint: 'pass-through' }); // passes
 */
export const POLICY_OPTIONS = defineOptions('createPolicy', {
  fields: {
    unknownEndpoint: oneOf(['deny', 'pass-through']),
    apiVersions: versions,
    unshownScopes: oneOf(['deny', 'allow']),
    workflowToken: oneOf(['app-installation', 'deny']),
    headerNames: object({
      fields: { acceptedPermissions: text(), oauthScopes: text(), acceptedOAuthScopes: text() },
    }),
  },
});

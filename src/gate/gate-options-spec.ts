/** What `createGate` accepts: one line per option (adding an option is adding a line here). */
import { defineOptions } from '../core/check-options.js';
import { anyOf, bool, func, number, object, oneOf, record, text, withMethods } from '../core/option-rules.js';
import { TOKEN_KINDS } from '../core/token.js';
import { PROXY_HEADERS } from './forwarded-for.js';

/**
 * The spec `createGate` (and so every adapter) checks its options against, at once.
 * @example
 * import { checkOptions } from '../core/check-options.js';
 * import { GATE_OPTIONS } from './gate-options-spec.js';
 * checkOptions(GATE_OPTIONS, { lookupToken: () => null }); // passes
 */
export const GATE_OPTIONS = defineOptions('createGate', {
  fields: {
    policy: withMethods('a policy from createPolicy', ['authorize']),
    limiter: withMethods('a limiter from createLimiter', [
      'identify',
      'admit',
      'complete',
      'release',
      'status',
    ]),
    lookupToken: func(),
    tokenPrefixes: record(oneOf(TOKEN_KINDS)),
    trustProxy: anyOf(bool(), number({ min: 0, integer: true })),
    proxyHeader: oneOf(PROXY_HEADERS),
    resolveToken: func(),
    resolveContext: func(),
    countDenied: bool(),
    unknownEndpoint: oneOf(['deny', 'pass-through']),
    headerNames: object({
      fields: { acceptedPermissions: text(), oauthScopes: text(), acceptedOAuthScopes: text() },
    }),
    load: func(),
    clock: func(),
    measureCpu: bool(),
    // The form of a path (`/api`, no `//`, `.` or escapes) is checked where it is compiled.
    basePath: {
      kind: 'test',
      expected: "a path such as `/api` (`''` for none)",
      test: (v) => typeof v === 'string',
    },
    skip: func(),
    onError: func(),
    onDecision: func(),
    standardHeaders: oneOf([false, 'draft-7', 'draft-8']),
    corsPreflight: oneOf(['pass', 'gate']),
    documentationUrls: object({
      fields: { authentication: text(), permissions: text(), rateLimits: text() },
    }),
  },
  oneRequired: [['lookupToken', 'resolveToken']],
});

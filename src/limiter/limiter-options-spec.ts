/** What `createLimiter` accepts: one line per option. */
import { defineOptions } from '../core/check-options.js';
import { func, members, oneOf, required } from '../core/option-rules.js';
import { IPV6_PREFIX, LIMITS_CONFIG_RULE } from './limits-config-spec.js';

/**
 * The spec `createLimiter` checks its options against, at once.
 * @example
 * import { checkOptions } from '../core/check-options.js';
 * import { LIMITER_OPTIONS } from './limiter-options-spec.js';
 * checkOptions(LIMITER_OPTIONS, { config: { answers: { status: 429 } } }); // passes
 */
export const LIMITER_OPTIONS = defineOptions('createLimiter', {
  fields: {
    // Each member named in its own line: a store written by hand misses one (sync, most often).
    store: members('a limits store (SyncLimitsStore or AsyncLimitsStore)', {
      sync: required({
        kind: 'test',
        expected: 'true (`apply` returns a Verdict) or false (`apply` returns a Promise)',
        test: (v) => typeof v === 'boolean',
      }),
      apply: required(func()),
      read: required(func()),
      reset: func(),
      close: func(),
      settlesAdmissions: oneOf([true, false]),
    }),
    clock: func(),
    config: LIMITS_CONFIG_RULE,
    // Each rule and mode is checked where the modes are applied, naming the valid ones.
    windowModes: {
      kind: 'test',
      expected: 'an object of rule to mode',
      test: (v) => typeof v === 'object' && v !== null,
    },
    ipv6Prefix: IPV6_PREFIX,
  },
});

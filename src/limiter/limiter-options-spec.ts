/** What `createLimiter` accepts: one line per option. */
import { defineOptions } from '../core/check-options.js';
import { func, number, object, oneOf, withMethods } from '../core/option-rules.js';
import { WINDOWED_RULES } from '../limits/index.js';
import { LIMITS_CONFIG_RULE } from './limits-config-spec.js';

/**
 * The spec `createLimiter` checks its options against, at once.
 * @example
 * import { checkOptions } from '../core/check-options.js';
 * import { LIMITER_OPTIONS } from './limiter-options-spec.js';
 * checkOptions(LIMITER_OPTIONS, { config: { answers: { status: 429 } } }); // passes
 */
export const LIMITER_OPTIONS = defineOptions('createLimiter', {
  fields: {
    store: withMethods('a limits store', ['apply', 'read']),
    clock: func(),
    config: LIMITS_CONFIG_RULE,
    windowModes: object({
      fields: Object.fromEntries(WINDOWED_RULES.map((rule) => [rule, oneOf(['bucket', 'strict'])])),
    }),
    ipv6Prefix: number({ min: 0, max: 128, integer: true }),
  },
});

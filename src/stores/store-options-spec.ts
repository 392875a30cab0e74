/** What `createMemoryStore` and `createRedisStore` accept: one line per option. */
import { defineOptions } from '../core/check-options.js';
import { bool, number, oneOf, required, text, withMethods } from '../core/option-rules.js';

/**
 * The spec `createMemoryStore` checks its options against.
 * @example
 * import { checkOptions } from '../core/check-options.js';
 * import { MEMORY_STORE_OPTIONS } from './store-options-spec.js';
 * checkOptions(MEMORY_STORE_OPTIONS, { maxIdentities: 100_000 }); // passes
 */
export const MEMORY_STORE_OPTIONS = defineOptions('createMemoryStore', {
  fields: { maxIdentities: number({ min: 1, integer: true }) },
});

/**
 * The spec `createRedisStore` checks its options against: a client is required.
 * @example
 * import { checkOptions } from '../core/check-options.js';
 * import { REDIS_STORE_OPTIONS } from './store-options-spec.js';
 * checkOptions(REDIS_STORE_OPTIONS, { client: null }); // throws TOLLGATE_INVALID_OPTION
 */
export const REDIS_STORE_OPTIONS = defineOptions('createRedisStore', {
  fields: {
    client: required(
      withMethods('an ioredis client (new Redis(url) or new Redis.Cluster(nodes))', [
        'callBuffer',
        'getBuffer',
        'del',
      ]),
    ),
    prefix: text(),
    useCallerClock: bool(),
    timeoutMs: number({ above: 0 }),
    onFailure: oneOf(['fail-closed', 'fail-open', 'fallback']),
    retryAfterFailureMs: number({ min: 0 }),
    fallbackShare: number({ above: 0, max: 1 }),
  },
});

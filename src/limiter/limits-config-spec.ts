/** What a `LimitsConfig` given to `createLimiter` may hold, field by field (every field optional: it is merged over the shipped limits). */
import { number, type OptionRule, object, oneOf, text } from '../core/option-rules.js';
import { defaultLimits } from '../limits/default-limits.js';
import { LIMIT_RULES } from '../limits/limits-config.js';
import { WINDOWED_RULES } from '../limits/windowed-rules.js';

const count = number({ min: 0, integer: true });
const positive = number({ min: 1, integer: true });
const fields = (names: readonly string[], rule: OptionRule) =>
  Object.fromEntries(names.map((n) => [n, rule]));
const caller = { limit: positive, enterpriseCloud: positive };
const resource = object({
  fields: {
    windowMs: positive,
    sameAsCore: oneOf([true, false]),
    anonymous: positive,
    authenticated: positive,
    batchObjects: positive,
  },
});
// Clients recognize a secondary limit by these words (seed 000, "Errors").
const secondaryMessage: OptionRule = {
  kind: 'test',
  expected: 'a message containing "secondary rate limit"',
  test: (v) => typeof v === 'string' && v.includes('secondary rate limit'),
};
// `strict` (0.1's name) is read as `sliding` (createLimiter), as in the table and `windowModes`.
const windowMode = oneOf(['sliding', 'bucket', 'strict']);

/**
 * How many leading bits group IPv6 callers into one anonymous identity (stream b's rule).
 * @example
 * import { IPV6_PREFIX } from './limits-config-spec.js';
 * IPV6_PREFIX.expected; // 'an integer from 1 to 128'
 */
export const IPV6_PREFIX: OptionRule = {
  kind: 'test',
  expected: 'an integer from 1 to 128',
  test: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 128,
};

/** A rule for a value shaped like `shipped`: same type, and for objects, the same fields (each shaped alike). */
function shapedLike(shipped: unknown): OptionRule {
  if (typeof shipped !== 'object' || shipped === null || Array.isArray(shipped))
    return { kind: 'test', expected: `a ${typeof shipped}`, test: (v) => typeof v === typeof shipped };
  return object({ fields: Object.fromEntries(Object.entries(shipped).map(([k, v]) => [k, shapedLike(v)])) });
}

/**
 * The rules below, plus every field the shipped config has that they do not name (a field a newer
 * limits table adds), checked by the shipped value's type: a whole compiled config always passes.
 */
function withShippedFields(rule: OptionRule, shipped: unknown): OptionRule {
  if (rule.kind !== 'object' || typeof shipped !== 'object' || shipped === null) return rule;
  const fields: Record<string, OptionRule> = {};
  for (const [name, field] of Object.entries(rule.spec.fields)) {
    const inner = 'required' in field ? field.rule : field;
    fields[name] = withShippedFields(inner, (shipped as Record<string, unknown>)[name]);
  }
  for (const [name, value] of Object.entries(shipped)) fields[name] ??= shapedLike(value);
  return object({ fields });
}

/**
 * The limits config as `createLimiter({ config })` takes it: the shapes of `LimitsConfig`, all
 * optional, with the ranges the table's schema states (`answers.status` 403 or 429).
 * @example
 * import { LIMITS_CONFIG_RULE } from './limits-config-spec.js';
 * LIMITS_CONFIG_RULE.kind; // 'object'
 */
export const LIMITS_CONFIG_RULE = withShippedFields(
  object({
    fields: {
      primary: object({
        fields: {
          windowMs: positive,
          callers: object({
            fields: {
              anonymous: object({ fields: { limit: positive } }),
              user: object({ fields: caller }),
              installation: object({
                fields: {
                  ...caller,
                  ...fields(['repositoriesIncluded', 'perRepository', 'usersIncluded', 'perUser'], count),
                  ceiling: positive,
                },
              }),
              clientCredentials: object({ fields: caller }),
              workflow: object({ fields: caller }),
            },
          }),
          resources: object({ fields: { search: resource, graphql: resource, lfs: resource } }),
        },
      }),
      secondary: object({
        fields: {
          concurrency: object({ fields: { limit: positive, leaseMs: positive } }),
          points: object({ fields: fields(['windowMs', 'rest', 'graphql'], positive) }),
          cpu: object({ fields: fields(['windowMs', 'totalMs', 'graphqlMs'], positive) }),
          content: object({ fields: fields(['perMinute', 'perHour'], positive) }),
          windowModes: object({
            fields: fields(WINDOWED_RULES, windowMode),
          }),
        },
      }),
      // stream b's `identity.ipv6_prefix` of data/limits.yaml, compiled to camelCase.
      identity: object({ fields: { ipv6Prefix: IPV6_PREFIX } }),
      costs: object({
        fields: {
          graphql: object({ fields: { query: positive, mutation: positive } }),
          rest: object({ fields: { read: positive, write: positive } }),
        },
      }),
      answers: object({
        fields: {
          status: oneOf([403, 429]),
          contentType: text(),
          documentationUrl: text(),
          headers: object({
            fields: fields(
              [
                'limit',
                'remaining',
                'used',
                'reset',
                'resource',
                'retryAfter',
                'pollInterval',
                'lastModified',
              ],
              text(),
            ),
          }),
          messages: object({
            fields: { primary: text(), ...fields(LIMIT_RULES.slice(1), secondaryMessage) },
          }),
        },
      }),
      polling: object({ fields: { intervalSeconds: positive, maxIntervalSeconds: positive } }),
      client: object({
        fields: { minWaitSeconds: positive, backoffFactor: number({ min: 1 }), maxRetries: count },
      }),
    },
  }),
  defaultLimits(),
);

/** Turns the snake_case limits table (data/limits.yaml, already parsed) into a typed LimitsConfig. */

import { TollgateError } from '../core/errors.js';
import {
  LIMIT_RULES,
  type LimitRule,
  type LimitsConfig,
  type ResourceLimit,
  type WindowMode,
} from './limits-config.js';
import { WINDOWED_RULES, type WindowedRule } from './strict-window.js';

type Raw = Record<string, unknown>;

/** Reads `path` of `raw`, requiring an object there. */
function object(raw: unknown, path: string): Raw {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return raw as Raw;
  throw invalid(path, 'an object');
}

function invalid(path: string, expected: string): TollgateError {
  return new TollgateError('TOLLGATE_INVALID_TABLE', `limits table: \`${path}\` must be ${expected}`);
}

function integer(raw: Raw, key: string, path: string, min = 0): number {
  const value = raw[key];
  if (typeof value === 'number' && Number.isInteger(value) && value >= min) return value;
  throw invalid(`${path}.${key}`, `an integer >= ${min}`);
}

function text(raw: Raw, key: string, path: string): string {
  const value = raw[key];
  if (typeof value === 'string' && value.length > 0) return value;
  throw invalid(`${path}.${key}`, 'a non-empty string');
}

/** `secondary.window_modes`: each windowed rule `bucket` or `strict`; absent ones are `bucket`. */
function windowModes(raw: unknown): Record<WindowedRule, WindowMode> {
  const given = raw === undefined ? {} : object(raw, 'secondary.window_modes');
  const modes = {} as Record<WindowedRule, WindowMode>;
  for (const rule of WINDOWED_RULES) {
    const mode = Object.hasOwn(given, rule) ? given[rule] : 'bucket';
    if (mode !== 'bucket' && mode !== 'strict')
      throw invalid(`secondary.window_modes.${rule}`, '`bucket` or `strict`');
    modes[rule] = mode;
  }
  for (const key of Object.keys(given))
    if (!(WINDOWED_RULES as readonly string[]).includes(key))
      throw invalid(`secondary.window_modes.${key}`, `one of ${WINDOWED_RULES.join(', ')}`);
  return modes;
}

/** `identity.ipv6_prefix`: 1 to 128 bits; absent, 56 (tollgate's choice, as express-rate-limit's default). */
function ipv6Prefix(raw: unknown): number {
  if (raw === undefined) return 56;
  const identity = object(raw, 'identity');
  if (identity.ipv6_prefix === undefined) return 56;
  const prefix = integer(identity, 'ipv6_prefix', 'identity', 1);
  if (prefix > 128) throw invalid('identity.ipv6_prefix', 'an integer from 1 to 128');
  return prefix;
}

function caller(raw: Raw, key: string) {
  const c = object(raw[key], `primary.callers.${key}`);
  const path = `primary.callers.${key}`;
  return { limit: integer(c, 'limit', path, 1), enterpriseCloud: integer(c, 'enterprise_cloud', path, 1) };
}

function resource(raw: Raw, key: string): ResourceLimit {
  const path = `primary.resources.${key}`;
  const r = object(raw[key], path);
  const windowMs = integer(r, 'window_seconds', path, 1) * 1000;
  if (r.same_as_core === true) return { windowMs, sameAsCore: true };
  const batch = r.batch_objects === undefined ? {} : { batchObjects: integer(r, 'batch_objects', path, 1) };
  return {
    windowMs,
    sameAsCore: false,
    anonymous: integer(r, 'anonymous', path, 1),
    authenticated: integer(r, 'authenticated', path, 1),
    ...batch,
  };
}

/**
 * Converts the parsed limits table to a LimitsConfig: camelCase names, seconds to milliseconds.
 * Validate the table with data/schema/limits.schema.json first for all problems at once; this
 * throws `TOLLGATE_INVALID_TABLE` on the first missing or mistyped field, and on a secondary
 * message that lacks the words "secondary rate limit" (clients look for them; seed 000, "Errors").
 * @example
 * import { readFileSync } from 'node:fs';
 * import { compileLimits } from 'tollgate/limits';
 * import { parse } from 'yaml';
 * const config = compileLimits(parse(readFileSync('data/limits.yaml', 'utf8')));
 * config.primary.callers.user.limit; // 5000
 */
export function compileLimits(raw: unknown): LimitsConfig {
  const root = object(raw, '(root)');
  const primary = object(root.primary, 'primary');
  const callers = object(primary.callers, 'primary.callers');
  const inst = object(callers.installation, 'primary.callers.installation');
  const resources = object(primary.resources, 'primary.resources');
  const secondary = object(root.secondary, 'secondary');
  const concurrency = object(secondary.concurrency, 'secondary.concurrency');
  const points = object(secondary.points, 'secondary.points');
  const cpu = object(secondary.cpu, 'secondary.cpu');
  const content = object(secondary.content, 'secondary.content');
  const costs = object(root.costs, 'costs');
  const graphqlCosts = object(costs.graphql, 'costs.graphql');
  const restCosts = object(costs.rest, 'costs.rest');
  const answers = object(root.answers, 'answers');
  const headers = object(answers.headers, 'answers.headers');
  const messages = object(answers.messages, 'answers.messages');
  const polling = object(root.polling, 'polling');
  const client = object(root.client, 'client');
  const status = answers.status;
  if (status !== 403 && status !== 429) throw invalid('answers.status', '403 or 429');
  const backoff = client.backoff_factor;
  if (typeof backoff !== 'number' || !(backoff >= 1)) throw invalid('client.backoff_factor', 'a number >= 1');

  const messageMap = {} as Record<LimitRule, string>;
  for (const key of LIMIT_RULES) {
    const message = text(messages, key, 'answers.messages');
    if (key !== 'primary' && !/secondary rate limit/.test(message)) {
      throw invalid(`answers.messages.${key}`, 'a message containing "secondary rate limit"');
    }
    messageMap[key] = message;
  }
  const h = (key: string) => text(headers, key, 'answers.headers').toLowerCase();

  return {
    identity: { ipv6Prefix: ipv6Prefix(root.identity) },
    primary: {
      windowMs: integer(primary, 'window_seconds', 'primary', 1) * 1000,
      callers: {
        anonymous: {
          limit: integer(
            object(callers.anonymous, 'primary.callers.anonymous'),
            'limit',
            'primary.callers.anonymous',
            1,
          ),
        },
        user: caller(callers, 'user'),
        installation: {
          ...caller(callers, 'installation'),
          repositoriesIncluded: integer(inst, 'repositories_included', 'primary.callers.installation'),
          perRepository: integer(inst, 'per_repository', 'primary.callers.installation'),
          usersIncluded: integer(inst, 'users_included', 'primary.callers.installation'),
          perUser: integer(inst, 'per_user', 'primary.callers.installation'),
          ceiling: integer(inst, 'ceiling', 'primary.callers.installation', 1),
        },
        clientCredentials: caller(callers, 'client_credentials'),
        workflow: caller(callers, 'workflow'),
      },
      resources: {
        search: resource(resources, 'search'),
        graphql: resource(resources, 'graphql'),
        lfs: resource(resources, 'lfs'),
      },
    },
    secondary: {
      concurrency: {
        limit: integer(concurrency, 'limit', 'secondary.concurrency', 1),
        leaseMs: integer(concurrency, 'lease_seconds', 'secondary.concurrency', 1) * 1000,
      },
      points: {
        windowMs: integer(points, 'window_seconds', 'secondary.points', 1) * 1000,
        rest: integer(points, 'rest', 'secondary.points', 1),
        graphql: integer(points, 'graphql', 'secondary.points', 1),
      },
      cpu: {
        windowMs: integer(cpu, 'window_seconds', 'secondary.cpu', 1) * 1000,
        totalMs: integer(cpu, 'total_seconds', 'secondary.cpu', 1) * 1000,
        graphqlMs: integer(cpu, 'graphql_seconds', 'secondary.cpu', 1) * 1000,
      },
      content: {
        perMinute: integer(content, 'per_minute', 'secondary.content', 1),
        perHour: integer(content, 'per_hour', 'secondary.content', 1),
      },
      windowModes: windowModes(secondary.window_modes),
    },
    costs: {
      graphql: {
        query: integer(graphqlCosts, 'query', 'costs.graphql', 1),
        mutation: integer(graphqlCosts, 'mutation', 'costs.graphql', 1),
      },
      rest: {
        read: integer(restCosts, 'read', 'costs.rest', 1),
        write: integer(restCosts, 'write', 'costs.rest', 1),
      },
    },
    answers: {
      status,
      contentType: text(answers, 'content_type', 'answers'),
      documentationUrl: text(answers, 'documentation_url', 'answers'),
      headers: {
        limit: h('limit'),
        remaining: h('remaining'),
        used: h('used'),
        reset: h('reset'),
        resource: h('resource'),
        retryAfter: h('retry_after'),
        pollInterval: h('poll_interval'),
        lastModified: h('last_modified'),
      },
      messages: messageMap,
    },
    polling: {
      intervalSeconds: integer(polling, 'interval_seconds', 'polling', 1),
      maxIntervalSeconds: integer(polling, 'max_interval_seconds', 'polling', 1),
    },
    client: {
      minWaitSeconds: integer(client, 'min_wait_seconds', 'client', 1),
      backoffFactor: backoff,
      maxRetries: integer(client, 'max_retries', 'client'),
    },
  };
}

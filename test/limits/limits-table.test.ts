// data/limits.yaml: valid against its strict schema, every number of seed 000's tables present,
// and every number cited.
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { compileLimits } from '../../src/limits/compile-limits.js';
import { defaultLimits } from '../../src/limits/default-limits.js';
import { LIMIT_RULES, RULE_ALGORITHMS } from '../../src/limits/limits-config.js';
import { config, limitsSchema, limitsYamlText, rawLimits } from './support.js';

const ajv = new Ajv({ strict: true, allErrors: true });
const validate = ajv.compile(limitsSchema);

// biome-ignore lint/suspicious/noExplicitAny: the tests poke arbitrary paths of the parsed YAML.
function withChange(change: (table: any) => void): unknown {
  const copy = structuredClone(rawLimits);
  change(copy);
  return copy;
}

describe('data/limits.yaml schema', () => {
  it('accepts the shipped table', () => {
    expect(validate(rawLimits), JSON.stringify(validate.errors)).toBe(true);
  });

  it('rejects an unknown field anywhere', () => {
    expect(validate(withChange((t) => (t.primary.callers.user.per_day = 1)))).toBe(false);
    expect(validate(withChange((t) => (t.extra = true)))).toBe(false);
  });

  it('reports every problem of a table in one run', () => {
    const bad = withChange((t) => {
      t.secondary.points.rest = -1;
      delete t.answers.status;
    });
    expect(validate(bad)).toBe(false);
    expect(validate.errors?.length).toBeGreaterThanOrEqual(2);
  });

  it('rejects a secondary message without the words "secondary rate limit"', () => {
    expect(validate(withChange((t) => (t.answers.messages.cpu = 'Too much CPU')))).toBe(false);
    expect(() => compileLimits(withChange((t) => (t.answers.messages.cpu = 'Too much CPU')))).toThrow(
      /secondary rate limit/,
    );
  });

  it('accepts 429 and rejects other statuses', () => {
    expect(validate(withChange((t) => (t.answers.status = 429)))).toBe(true);
    expect(validate(withChange((t) => (t.answers.status = 500)))).toBe(false);
  });

  it('compileLimits names the field of a bad table and throws TOLLGATE_INVALID_TABLE', () => {
    expect(() => compileLimits(withChange((t) => (t.primary.callers.user.limit = 'many')))).toThrow(
      expect.objectContaining({
        code: 'TOLLGATE_INVALID_TABLE',
        message: expect.stringContaining('primary.callers.user.limit'),
      }),
    );
  });
});

describe('every number of seed 000 "Limits" is in the table', () => {
  const c = config;
  it('primary window: per hour', () => expect(c.primary.windowMs).toBe(3_600_000));
  it('unauthenticated: 60 per hour', () => expect(c.primary.callers.anonymous.limit).toBe(60));
  it('authenticated user: 5,000 per hour', () => expect(c.primary.callers.user.limit).toBe(5000));
  it('user through an enterprise-cloud app: 15,000 per hour', () =>
    expect(c.primary.callers.user.enterpriseCloud).toBe(15000));
  it('installation: minimum 5,000 per hour', () => expect(c.primary.callers.installation.limit).toBe(5000));
  it('installation on enterprise cloud: 15,000 per hour', () =>
    expect(c.primary.callers.installation.enterpriseCloud).toBe(15000));
  it('installation: 50 per repository beyond 20', () => {
    expect(c.primary.callers.installation.perRepository).toBe(50);
    expect(c.primary.callers.installation.repositoriesIncluded).toBe(20);
  });
  it('installation: 50 per organization user beyond 20', () => {
    expect(c.primary.callers.installation.perUser).toBe(50);
    expect(c.primary.callers.installation.usersIncluded).toBe(20);
  });
  it('installation ceiling: 12,500 per hour', () =>
    expect(c.primary.callers.installation.ceiling).toBe(12500));
  it('client credentials: 5,000 per hour per app, 15,000 on enterprise cloud', () => {
    expect(c.primary.callers.clientCredentials).toEqual({ limit: 5000, enterpriseCloud: 15000 });
  });
  it('workflow token: 1,000 per hour per repository, 15,000 on enterprise cloud', () => {
    expect(c.primary.callers.workflow).toEqual({ limit: 1000, enterpriseCloud: 15000 });
  });
  it('large-file storage: 300 per minute unauthenticated, 3,000 authenticated, 100 objects per batch', () => {
    expect(c.primary.resources.lfs).toEqual({
      windowMs: 60_000,
      sameAsCore: false,
      anonymous: 300,
      authenticated: 3000,
      batchObjects: 100,
    });
  });
  it('search and GraphQL: separate resources with tollgate-chosen defaults', () => {
    expect(c.primary.resources.search).toEqual({
      windowMs: 60_000,
      sameAsCore: false,
      anonymous: 10,
      authenticated: 30,
    });
    expect(c.primary.resources.graphql).toEqual({ windowMs: 3_600_000, sameAsCore: true });
  });
  it('concurrent requests: at most 100', () => expect(c.secondary.concurrency.limit).toBe(100));
  it('points per minute: 900 REST, 2,000 GraphQL', () =>
    expect(c.secondary.points).toEqual({ windowMs: 60_000, rest: 900, graphql: 2000 }));
  it('CPU: 90 s per 60 s, 60 s of it for GraphQL', () =>
    expect(c.secondary.cpu).toEqual({ windowMs: 60_000, totalMs: 90_000, graphqlMs: 60_000 }));
  it('content-generating: 80 per minute and 500 per hour', () =>
    expect(c.secondary.content).toEqual({ perMinute: 80, perHour: 500 }));
  it('point costs: GraphQL 1 and 5 with a mutation; REST 1 for reads, 5 otherwise', () => {
    expect(c.costs).toEqual({ graphql: { query: 1, mutation: 5 }, rest: { read: 1, write: 5 } });
  });
  it('answers: 403 by default, JSON body, the five x-ratelimit headers and retry-after', () => {
    expect(c.answers.status).toBe(403);
    expect(c.answers.contentType).toBe('application/json; charset=utf-8');
    expect(c.answers.headers).toEqual({
      limit: 'x-ratelimit-limit',
      remaining: 'x-ratelimit-remaining',
      used: 'x-ratelimit-used',
      reset: 'x-ratelimit-reset',
      resource: 'x-ratelimit-resource',
      retryAfter: 'retry-after',
      pollInterval: 'x-poll-interval',
      lastModified: 'last-modified',
    });
  });
  it('client rules: at least one minute, exponential, bounded', () => {
    expect(c.client).toEqual({ minWaitSeconds: 60, backoffFactor: 2, maxRetries: 5 });
  });
  it('the shipped (generated) table is the YAML table', () => {
    expect(defaultLimits()).toEqual(config);
  });
});

describe('every number is cited', () => {
  it("has a comment citing seed 000 or saying it is tollgate's choice above each numeric field", () => {
    const lines = limitsYamlText.split('\n');
    const uncited: string[] = [];
    lines.forEach((line, index) => {
      if (!/^\s*[a-z_]+:\s*\d+\s*$/.test(line) || /^version:/.test(line)) return;
      // The nearest comment block above the field (skipping sibling numeric fields it covers).
      let j = index - 1;
      while (j >= 0 && !/^\s*#/.test(lines[j]!) && /^\s*[a-z_]+:\s*\S/.test(lines[j]!)) j--;
      const comment = lines.slice(Math.max(0, j - 3), j + 1).join(' ');
      if (!/seed 000|tollgate's choice/.test(comment)) uncited.push(`${index + 1}: ${line.trim()}`);
    });
    expect(uncited).toEqual([]);
  });
});

describe('algorithms', () => {
  it('names one for every rule: fixed windows for primary, sliding logs per minute and hour and for CPU, a counter in flight', () => {
    expect(Object.keys(RULE_ALGORITHMS).sort()).toEqual([...LIMIT_RULES].sort());
    expect(RULE_ALGORITHMS.primary).toBe('fixed window');
    expect(RULE_ALGORITHMS.concurrency).toBe('counter');
    for (const rule of LIMIT_RULES.filter((r) => r !== 'primary' && r !== 'concurrency')) {
      expect(RULE_ALGORITHMS[rule]).toBe('sliding log');
    }
  });
});

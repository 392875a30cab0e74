// The service's answers (seed 000, "Errors", "Rate limit response headers", "Polling rules",
// "Rate limit status"): headers, bodies, rate_limit body, poll interval, the 304 rule.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deniedVerdict, limitedResponse, rateLimitHeaders } from '../../src/limits/answers.js';
import { LIMIT_RULES } from '../../src/limits/limits-config.js';
import { httpDate, notModified, pollInterval, pollingHeaders } from '../../src/limits/poll-interval.js';
import { rateLimitBody } from '../../src/limits/rate-limit-body.js';
import { step } from '../../src/limits/step.js';
import { admitEvent, config, T0 } from './support.js';

describe('rate-limit headers', () => {
  it('carry limit, remaining, used, reset in epoch seconds and the resource', () => {
    expect(rateLimitHeaders('search', 30, 3, T0 + 60_000, config)).toEqual({
      'x-ratelimit-limit': '30',
      'x-ratelimit-remaining': '27',
      'x-ratelimit-used': '3',
      'x-ratelimit-reset': String(T0 / 1000 + 60),
      'x-ratelimit-resource': 'search',
    });
  });

  it('use configured header names', () => {
    const custom = {
      ...config,
      answers: { ...config.answers, headers: { ...config.answers.headers, limit: 'ratelimit-limit' } },
    };
    expect(rateLimitHeaders('core', 1, 0, T0, custom)['ratelimit-limit']).toBe('1');
  });

  it('never show a negative remaining', () => {
    fc.assert(
      fc.property(fc.nat(20_000), fc.nat(20_000), (limit, used) => {
        expect(
          Number(rateLimitHeaders('core', limit, used, T0, config)['x-ratelimit-remaining']),
        ).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});

describe('limited response', () => {
  it('is a JSON body with message, documentation_url and status, as application/json; charset=utf-8', () => {
    const verdict = deniedVerdict(
      'rest_points',
      'user:a',
      'core',
      5000,
      10,
      T0 + 3_600_000,
      T0 + 2500,
      T0,
      config,
    );
    const response = limitedResponse(verdict)!;
    expect(response.status).toBe(403);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['retry-after']).toBe('3');
    expect(JSON.parse(response.body)).toEqual({
      message: config.answers.messages.rest_points,
      documentation_url: 'https://docs.example.com/rest/rate-limits',
      status: '403',
    });
  });

  it('names the secondary limit in every secondary message', () => {
    const secondary = LIMIT_RULES.filter((rule) => rule !== 'primary');
    expect(secondary).toHaveLength(7);
    for (const rule of secondary) {
      const verdict = deniedVerdict(rule, 'user:a', 'core', 5000, 10, T0, T0 + 1000, T0, config);
      expect(verdict.body?.message).toMatch(/secondary rate limit/);
    }
  });

  it('serializes with its headers (JSON.stringify of a verdict)', () => {
    const verdict = deniedVerdict('cpu', 'user:a', 'core', 5000, 10, T0 + 3_600_000, T0 + 1500, T0, config);
    const json = JSON.parse(JSON.stringify(verdict));
    expect(json).toMatchObject({ allowed: false, rule: 'cpu', retryAfter: 2, remaining: 4990 });
    expect(json.headers).toEqual(verdict.headers);
  });

  it('is null for an allowed verdict', () => {
    expect(limitedResponse(step(undefined, admitEvent(), T0, config).verdict)).toBeNull();
  });
});

describe('GET /rate_limit body', () => {
  it('lists every resource with limit, remaining, reset and used, plus rate for core', () => {
    const { state } = step(undefined, admitEvent({ limit: 5000 }), T0, config);
    const body = rateLimitBody(
      state,
      T0 + 1000,
      { core: 5000, search: 30, graphql: 5000, lfs: 3000 },
      config,
    );
    expect(body.resources.core).toEqual({
      limit: 5000,
      remaining: 4999,
      reset: T0 / 1000 + 3600,
      used: 1,
      resource: 'core',
    });
    expect(body.resources.search).toEqual({
      limit: 30,
      remaining: 30,
      reset: T0 / 1000 + 61,
      used: 0,
      resource: 'search',
    });
    expect(Object.keys(body.resources)).toEqual(['core', 'search', 'graphql', 'lfs']);
    expect(body.rate).toEqual(body.resources.core);
  });

  it('answers a caller never seen with full limits', () => {
    const body = rateLimitBody(undefined, T0, { core: 60, search: 10, graphql: 60, lfs: 300 }, config);
    expect(body.rate).toMatchObject({ limit: 60, remaining: 60, used: 0 });
  });
});

describe('polling', () => {
  it('asks for 60 s between polls when idle and more under load, at most 3600 s', () => {
    expect(pollInterval(0, config)).toBe(60);
    expect(pollInterval(0.5, config)).toBe(60);
    expect(pollInterval(0.6, config)).toBe(120);
    expect(pollInterval(0.9, config)).toBe(240);
    expect(pollInterval(1.2, config)).toBe(480);
    expect(pollInterval(100, config)).toBe(3600);
  });

  it('never shortens the interval as load grows', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 20, noNaN: true }),
        fc.double({ min: 0, max: 20, noNaN: true }),
        (a, b) => {
          const [low, high] = a <= b ? [a, b] : [b, a];
          expect(pollInterval(low, config)).toBeLessThanOrEqual(pollInterval(high, config));
          expect(pollInterval(high, config)).toBeLessThanOrEqual(config.polling.maxIntervalSeconds);
        },
      ),
    );
  });

  it('sends Last-Modified and X-Poll-Interval', () => {
    expect(pollingHeaders(0, 0, config)).toEqual({
      'last-modified': 'Thu, 01 Jan 1970 00:00:00 GMT',
      'x-poll-interval': '60',
    });
  });

  it('answers 304 only to the exact Last-Modified value', () => {
    const lastModified = httpDate(T0);
    expect(notModified(lastModified, lastModified)).toBe(true);
    expect(notModified(httpDate(T0 - 1000), lastModified)).toBe(false);
    expect(notModified(undefined, lastModified)).toBe(false);
  });
});

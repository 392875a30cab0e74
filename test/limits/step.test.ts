// step(): each rule of seed 000 "Limits" at its shipped number, and the answers of "Errors".
import { describe, expect, it } from 'vitest';
import type { IdentityState } from '../../src/limits/identity-state.js';
import type { AdmitEvent, Ticket } from '../../src/limits/limit-event.js';
import type { LimitsConfig } from '../../src/limits/limits-config.js';
import { step } from '../../src/limits/step.js';
import type { Verdict } from '../../src/limits/verdict.js';
import { admitEvent, config, T0 } from './support.js';

/** A single identity driven through step. */
function caller(cfg: LimitsConfig = config) {
  let state: IdentityState | undefined;
  return {
    admit(now: number, overrides: Partial<AdmitEvent> = {}): Verdict {
      const result = step(state, admitEvent(overrides), now, cfg);
      state = result.state;
      return result.verdict;
    },
    complete(now: number, ticket: Ticket, status = 200, cpuMs = 0): Verdict {
      const result = step(state, { kind: 'complete', ticket, status, cpuMs }, now, cfg);
      state = result.state;
      return result.verdict;
    },
    release(now: number, ticket: Ticket): Verdict {
      const result = step(state, { kind: 'release', ticket, cpuMs: 0 }, now, cfg);
      state = result.state;
      return result.verdict;
    },
    get state() {
      return state;
    },
  };
}

/** Admits and completes `n` requests at `now`, returning the last verdict. */
function burst(
  c: ReturnType<typeof caller>,
  n: number,
  now: number,
  overrides: Partial<AdmitEvent> = {},
): Verdict {
  let last: Verdict | undefined;
  for (let i = 0; i < n; i++) {
    last = c.admit(now, overrides);
    if (last.ticket) c.complete(now, last.ticket);
  }
  return last!;
}

describe('primary limit', () => {
  it('sends the five x-ratelimit headers on an admitted request', () => {
    const v = caller().admit(T0);
    expect(v.allowed).toBe(true);
    expect(v.headers).toEqual({
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': '4999',
      'x-ratelimit-used': '1',
      'x-ratelimit-reset': String(T0 / 1000 + 3600),
      'x-ratelimit-resource': 'core',
    });
  });

  it('denies the 61st anonymous request of the hour with 403, remaining 0 and a JSON body', () => {
    const c = caller();
    const anon = { key: 'ip:203.0.113.7', limit: 60 };
    expect(burst(c, 60, T0, anon).allowed).toBe(true);
    const v = c.admit(T0 + 1000, anon);
    expect(v).toMatchObject({
      allowed: false,
      reason: 'primary_rate_limit',
      rule: 'primary',
      status: 403,
      remaining: 0,
    });
    expect(v.headers['x-ratelimit-remaining']).toBe('0');
    expect(v.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(v.headers['retry-after']).toBeUndefined();
    expect(v.body).toEqual({
      message: 'API rate limit exceeded for ip:203.0.113.7 (resource core).',
      documentation_url: config.answers.documentationUrl,
      status: '403',
    });
    expect(v.retryAt).toBe(T0 + 3_600_000);
  });

  it('answers 429 when configured', () => {
    const c = caller({ ...config, answers: { ...config.answers, status: 429 } });
    burst(c, 60, T0, { limit: 60 });
    expect(c.admit(T0, { limit: 60 })).toMatchObject({ status: 429, body: { status: '429' } });
  });

  it('opens a new window at the first request after x-ratelimit-reset', () => {
    const c = caller();
    burst(c, 60, T0, { limit: 60 });
    expect(c.admit(T0 + 3_599_999, { limit: 60 }).allowed).toBe(false);
    const v = c.admit(T0 + 3_600_000, { limit: 60 });
    expect(v).toMatchObject({ allowed: true, used: 1, remaining: 59, reset: T0 / 1000 + 7200 });
  });

  it('counts each resource in its own window: lfs 3,000 per minute beside core', () => {
    const c = caller();
    expect(burst(c, 3000, T0, { resource: 'lfs', limit: 3000, cost: 0 }).allowed).toBe(true);
    expect(c.admit(T0, { resource: 'lfs', limit: 3000, cost: 0 }).rule).toBe('primary');
    expect(c.admit(T0, { resource: 'core' })).toMatchObject({ allowed: true, used: 1 });
    expect(c.admit(T0 + 60_000, { resource: 'lfs', limit: 3000, cost: 0 })).toMatchObject({
      allowed: true,
      used: 1,
    });
  });

  it('does not count GET /rate_limit against the primary limit', () => {
    const c = caller();
    c.admit(T0);
    const v = c.admit(T0, { countsPrimary: false });
    expect(v).toMatchObject({ allowed: true, used: 1, remaining: 4999 });
  });

  it('answers GET /rate_limit even when the primary limit is exhausted', () => {
    const c = caller();
    burst(c, 60, T0, { limit: 60 });
    expect(c.admit(T0, { limit: 60, countsPrimary: false }).allowed).toBe(true);
  });

  it('refunds the count of a 304 on complete', () => {
    const c = caller();
    const v = c.admit(T0);
    const done = c.complete(T0 + 10, v.ticket!, 304);
    expect(done).toMatchObject({ used: 0, remaining: 5000 });
    expect(c.state?.coreUsed).toBe(0);
  });

  it('does not refund a 304 that completes in a later window', () => {
    const c = caller();
    const v = c.admit(T0);
    c.admit(T0 + 3_600_000); // opens the next window
    c.complete(T0 + 3_600_001, v.ticket!, 304);
    expect(c.state?.coreUsed).toBe(1);
  });
});

describe('secondary limits', () => {
  it('admits 100 concurrent requests and denies the 101st with retry-after', () => {
    const c = caller();
    const tickets: Ticket[] = [];
    for (let i = 0; i < 100; i++) tickets.push(c.admit(T0).ticket!);
    const v = c.admit(T0);
    expect(v).toMatchObject({ allowed: false, reason: 'secondary_rate_limit', rule: 'concurrency' });
    expect(v.headers['retry-after']).toBe('1');
    expect(v.body?.message).toContain('secondary rate limit');
    c.release(T0, tickets[0]!);
    expect(c.admit(T0).allowed).toBe(true);
  });

  it('shares the 100 slots between REST and GraphQL', () => {
    const c = caller();
    for (let i = 0; i < 50; i++) c.admit(T0);
    for (let i = 0; i < 50; i++) c.admit(T0, { graphql: true, resource: 'graphql' });
    expect(c.admit(T0, { graphql: true, resource: 'graphql' }).rule).toBe('concurrency');
  });

  it('counts in flight as the store says: leases belong to the store (TicketLedger), not to step', () => {
    const c = caller();
    for (let i = 0; i < 100; i++) c.admit(T0);
    expect(c.admit(T0 + 599_999 + 600_000).rule).toBe('concurrency');
  });

  it('allows 900 REST points per minute: 180 writes of 5 points, then nothing until they leave the window', () => {
    const c = caller();
    expect(burst(c, 180, T0, { cost: 5 }).allowed).toBe(true);
    const v = c.admit(T0, { cost: 5 });
    expect(v.rule).toBe('rest_points');
    // seed 000:361 "at most 900" per minute: the 900 points stamped T0 count in (t - 60 s, t] until T0 + 60 s.
    expect(v.retryAt).toBe(T0 + 60_000);
    expect(v.headers['retry-after']).toBe('60');
    expect(c.admit(T0 + 59_999, { cost: 5 }).rule).toBe('rest_points');
    expect(c.admit(T0 + 60_000, { cost: 5 }).allowed).toBe(true);
  });

  it('allows 2,000 GraphQL points per minute, separately from REST', () => {
    const c = caller();
    const gql = { graphql: true, resource: 'graphql' as const, cost: 5 };
    expect(burst(c, 400, T0, gql).allowed).toBe(true);
    expect(c.admit(T0, gql).rule).toBe('graphql_points');
    expect(c.admit(T0, { cost: 5 }).allowed).toBe(true);
  });

  it('charges CPU on complete and denies once 90 s of CPU were used within 60 s', () => {
    const c = caller();
    const v = c.admit(T0);
    c.complete(T0, v.ticket!, 200, 90_000);
    const denied = c.admit(T0);
    // The charge is stamped at the start of its second (T0) and counted for 60 s + 1 s.
    expect(denied).toMatchObject({ allowed: false, rule: 'cpu', retryAt: T0 + 61_000 });
    expect(c.admit(T0 + 60_999).rule).toBe('cpu');
    expect(c.admit(T0 + 61_000).allowed).toBe(true);
  });

  it('limits GraphQL CPU to 60 s of the 90', () => {
    const c = caller();
    const gql = { graphql: true, resource: 'graphql' as const };
    const v = c.admit(T0, gql);
    c.complete(T0, v.ticket!, 200, 60_000);
    expect(c.admit(T0, gql).rule).toBe('graphql_cpu');
    expect(c.admit(T0).allowed).toBe(true); // REST still has 30 s of CPU
  });

  it("clamps one request's CPU charge to the rule's capacity, so even 1e12 ms leaves with its window", () => {
    const c = caller();
    const first = c.admit(T0);
    c.complete(T0, first.ticket!, 200, 89_999); // just below the ceiling: still admitted
    const second = c.admit(T0);
    c.complete(T0, second.ticket!, 200, 1e12); // about 21 years, mismeasured
    const denied = c.admit(T0);
    expect(denied).toMatchObject({ allowed: false, rule: 'cpu' });
    expect(denied.retryAt!).toBe(T0 + 61_000);
    expect(c.admit(T0 + 61_000).allowed).toBe(true);
  });

  it("clamps a GraphQL CPU charge to each CPU rule's own capacity", () => {
    const c = caller();
    const gql = { graphql: true, resource: 'graphql' as const };
    c.complete(T0, c.admit(T0, gql).ticket!, 200, 1e12);
    expect(c.state!.logs![2]).toEqual([T0, 90_000]);
    expect(c.state!.logs![3]).toEqual([T0, 60_000]);
    expect(c.admit(T0 + 60_999, gql).rule).toBe('cpu');
    expect(c.admit(T0 + 61_000, gql).allowed).toBe(true);
  });

  it('allows 80 content-generating requests per minute', () => {
    const c = caller();
    expect(burst(c, 80, T0, { content: true }).allowed).toBe(true);
    expect(c.admit(T0, { content: true }).rule).toBe('content_per_minute');
    expect(c.admit(T0).allowed).toBe(true);
  });

  it('allows 500 content-generating requests per hour', () => {
    const c = caller();
    let now = T0;
    let admitted = 0;
    // 80 per minute for 7 minutes = 560 tries: each minute's 80 leave the minute rule exactly one
    // minute later, so 6 minutes admit 480 and the 7th 20, and the hour rule stops it at 500.
    for (let minute = 0; minute < 7; minute++, now += 60_000) {
      for (let i = 0; i < 80; i++) {
        const v = c.admit(now, { content: true });
        if (v.ticket) {
          admitted++;
          c.complete(now, v.ticket);
        } else expect(v.rule).toBe('content_per_hour');
      }
    }
    expect(admitted).toBe(500);
  });

  it('names the first rule that denies but waits for the last one to free up', () => {
    const c = caller();
    for (let i = 0; i < 100; i++) c.admit(T0, { cost: 9 });
    const v = c.admit(T0, { cost: 30 });
    expect(v.rule).toBe('concurrency');
    // The 900 points leave at T0 + 60 s, later than concurrency's 1 s.
    expect(v.retryAt).toBe(T0 + 60_000);
    expect(v.headers['retry-after']).toBe('60');
  });

  it('charges nothing for a denied request', () => {
    const c = caller();
    for (let i = 0; i < 100; i++) c.admit(T0);
    const before = c.state;
    c.admit(T0);
    expect(c.state).toBe(before);
  });
});

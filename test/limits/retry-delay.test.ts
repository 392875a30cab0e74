// seed 000, "Client behaviour when limited", rules 1-5.
import { describe, expect, it } from 'vitest';
import { retryDelay } from '../../src/limits/retry-delay.js';
import { T0 } from './support.js';

const now = T0;

describe('retryDelay', () => {
  it('rule 1: after a primary limit, waits until x-ratelimit-reset', () => {
    const response = {
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(T0 / 1000 + 120) },
    };
    expect(retryDelay(response, 1, { now })).toBe(120_000);
  });

  it('rule 2: after a secondary limit with retry-after, waits that many seconds', () => {
    expect(
      retryDelay({ status: 429, headers: { 'retry-after': '30', 'x-ratelimit-remaining': '10' } }, 1, {
        now,
      }),
    ).toBe(30_000);
  });

  it('rule 3: without retry-after and with remaining 0, waits until the reset', () => {
    const response = {
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(T0 / 1000 + 5) },
    };
    expect(retryDelay(response, 3, { now })).toBe(5_000);
  });

  it('never retries before either the reset or retry-after when both are present', () => {
    const response = {
      status: 403,
      headers: {
        'retry-after': '30',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(T0 / 1000 + 90),
      },
    };
    expect(retryDelay(response, 1, { now })).toBe(90_000);
  });

  it('rule 4: otherwise waits one minute, then exponentially longer', () => {
    const response = { status: 403, headers: {} };
    expect(retryDelay(response, 1, { now })).toBe(60_000);
    expect(retryDelay(response, 2, { now })).toBe(120_000);
    expect(retryDelay(response, 3, { now })).toBe(240_000);
    expect(retryDelay(response, 3, { now, minWaitSeconds: 90, backoffFactor: 3 })).toBe(810_000);
  });

  it('rules 4 and 5: gives up after the bounded number of retries', () => {
    const response = { status: 429, headers: { 'retry-after': '1' } };
    expect(retryDelay(response, 5, { now })).toBe(1000);
    expect(retryDelay(response, 6, { now })).toBeNull();
    expect(retryDelay(response, 2, { now, maxRetries: 1 })).toBeNull();
  });

  it('does not retry what is not a rate limit', () => {
    expect(retryDelay({ status: 404, headers: {} }, 1, { now })).toBeNull();
    expect(
      retryDelay(
        { status: 403, headers: {}, body: { message: 'Resource not accessible by integration' } },
        1,
        { now },
      ),
    ).toBeNull();
    expect(
      retryDelay(
        { status: 403, headers: {}, body: { message: 'You have exceeded a secondary rate limit' } },
        1,
        { now },
      ),
    ).toBe(60_000);
  });

  it('waits 0 when the reset already passed', () => {
    const response = {
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(T0 / 1000 - 10) },
    };
    expect(retryDelay(response, 1, { now })).toBe(0);
  });
});

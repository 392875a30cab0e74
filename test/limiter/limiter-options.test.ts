// createLimiter checks its options at once, and lays a partial limits config over the shipped one.
import { describe, expect, it } from 'vitest';
import { createGate, createLimiter, type LimiterOptions } from '../../src/index.js';
import { defaultLimits } from '../../src/limits/default-limits.js';
import { thrown } from '../support/thrown.js';

describe('createLimiter options', () => {
  it.each([
    [
      { config: { answers: { status: 418 } } },
      'createLimiter: `config.answers.status` must be one of 403, 429, got `418`',
    ],
    [
      { config: { primary: { callers: { anonymous: { limit: 0 } } } } },
      'createLimiter: `config.primary.callers.anonymous.limit` must be an integer >= 1, got `0`',
    ],
    [
      { config: { answers: { messages: { cpu: 'slow down' } } } },
      'createLimiter: `config.answers.messages.cpu` must be a message containing "secondary rate limit", got `"slow down"`',
    ],
    [
      { config: { secondry: {} } },
      'createLimiter: unknown option `config.secondry` (did you mean `secondary`?); valid: primary, secondary, identity, costs, answers, polling, client',
    ],
    [
      { windowModes: 'strict' },
      'createLimiter: `windowModes` must be an object of rule to mode, got `"strict"`',
    ],
    [
      { store: 'memory' },
      'createLimiter: `store` must be a limits store (SyncLimitsStore or AsyncLimitsStore), got `"memory"`',
    ],
    // Found by a new user's trial: each of these passed, then failed on the first request.
    [
      { store: { apply() {}, read() {} } },
      'createLimiter: `store.sync` is required: give true (`apply` returns a Verdict) or false (`apply` returns a Promise)',
    ],
    [
      { store: { sync: 'yes', apply() {}, read() {} } },
      'createLimiter: `store.sync` must be true (`apply` returns a Verdict) or false (`apply` returns a Promise), got `"yes"`',
    ],
    [{ store: { sync: true, read() {} } }, 'createLimiter: `store.apply` is required: give a function'],
    [
      { store: { sync: true, apply() {}, read() {}, close: 1 } },
      'createLimiter: `store.close` must be a function, got `1`',
    ],
    [
      { store: { sync: true, apply() {}, read() {}, reset: 'x' } },
      'createLimiter: `store.reset` must be a function, got `"x"`',
    ],
    [
      { store: { sync: false, apply() {}, read() {}, settlesAdmissions: 'y' } },
      'createLimiter: `store.settlesAdmissions` must be one of true, false, got `"y"`',
    ],
    [{ clock: Date.now() }, expect.stringMatching(/^createLimiter: `clock` must be a function, got `\d+`$/)],
    [{ ipv6Prefix: 129 }, 'createLimiter: `ipv6Prefix` must be an integer from 1 to 128, got `129`'],
    [null, 'createLimiter: options must be an object, got `null`'],
  ])('refuses %o at once', (options, message) => {
    const error = thrown(() => createLimiter(options as LimiterOptions<never>));
    expect(error.code).toBe('TOLLGATE_INVALID_OPTION');
    expect(error.message).toEqual(message);
    expect(error.details).toEqual([message]);
  });

  it('names every member a store lacks, each on a line of its own', () => {
    const error = thrown(() => createLimiter({ store: {} } as unknown as LimiterOptions<never>));
    expect(error.code).toBe('TOLLGATE_INVALID_OPTION');
    const sync =
      'createLimiter: `store.sync` is required: give true (`apply` returns a Verdict) or false (`apply` returns a Promise)';
    expect(error.message).toBe(`${sync} (and 2 more: see details)`);
    expect(error.details).toEqual([
      sync,
      'createLimiter: `store.apply` is required: give a function',
      'createLimiter: `store.read` is required: give a function',
    ]);
    // A class instance's methods live on its prototype; its other members are its own business.
    class Store {
      readonly sync = true;
      readonly note = 'mine';
      apply() {}
      read() {}
    }
    expect(() => createLimiter({ store: new Store() } as unknown as LimiterOptions<never>)).not.toThrow();
  });

  it('takes a config window mode of sliding or bucket, reads 0.1 strict as sliding, and refuses any other naming the choices', () => {
    const modes = (windowModes: Record<string, string>) =>
      createLimiter({ config: { secondary: { windowModes } } as LimiterOptions<never>['config'] }).config
        .secondary.windowModes;
    expect(modes({ rest_points: 'bucket', content_per_hour: 'strict' })).toEqual({
      ...defaultLimits().secondary.windowModes,
      rest_points: 'bucket',
      content_per_hour: 'sliding',
    });
    expect(modes({ graphql_points: 'sliding' }).graphql_points).toBe('sliding');
    expect(thrown(() => modes({ rest_points: 'fixed' })).message).toBe(
      'createLimiter: `config.secondary.windowModes.rest_points` must be one of `sliding`, `bucket`, `strict`, got `"fixed"`',
    );
  });

  it('merges a partial config over the shipped limits: one line gives 429 refusals', async () => {
    const limiter = createLimiter({
      config: { answers: { status: 429 }, primary: { callers: { anonymous: { limit: 1 } } } },
    });
    expect(limiter.config.answers.status).toBe(429);
    expect(limiter.config.primary.callers.user).toEqual(defaultLimits().primary.callers.user);
    expect(limiter.config.secondary).toEqual(defaultLimits().secondary);
    const gate = createGate({ lookupToken: () => null, limiter });
    const facts = {
      method: 'GET',
      target: '/repos/acme/app/issues/events',
      header: () => undefined,
      remoteAddress: '203.0.113.9',
    };
    const first = await gate.check(facts);
    expect(first.action).toBe('respond'); // anonymous on a private repository: 404, counted
    expect(first.action === 'respond' && first.status).toBe(404);
    const second = await gate.check(facts);
    expect(second.action === 'respond' && second.status).toBe(429);
    expect(second.action === 'respond' && second.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('accepts a whole compiled config (a copy of the shipped one) and keeps its numbers', () => {
    const copy = structuredClone(defaultLimits());
    expect(createLimiter({ config: copy }).config).toEqual(defaultLimits());
  });

  it('keeps the shipped config object itself when none is given', () => {
    expect(createLimiter().config).toBe(defaultLimits());
  });
});

// An admitted request's headers carry its own limiter's header names, whichever limiters share the
// process: an allowed verdict keeps its names on its class, not in the verdict.
import { describe, expect, it } from 'vitest';
import { createLimiter, createMemoryStore } from '../../src/index.js';

const T0 = Date.UTC(2026, 0, 1);

describe('allowed verdicts under different header names', () => {
  it('answer with their own limiter names, interleaved, for admissions and completions', () => {
    const renamed = createLimiter({
      store: createMemoryStore(),
      clock: () => T0,
      config: { answers: { headers: { limit: 'ratelimit-limit', remaining: 'ratelimit-remaining' } } },
    });
    const shipped = createLimiter({ store: createMemoryStore(), clock: () => T0 });
    const token = { kind: 'classic', user: 'octocat' } as const;
    const a = renamed.identify(token);
    const b = shipped.identify(token);
    for (let n = 1; n <= 3; n++) {
      const first = renamed.admit({ identity: a, method: 'GET' });
      const second = shipped.admit({ identity: b, method: 'GET' });
      expect(first.headers).toEqual({
        'ratelimit-limit': '5000',
        'ratelimit-remaining': '4999',
        'x-ratelimit-used': '1',
        'x-ratelimit-reset': String(T0 / 1000 + 3600),
        'x-ratelimit-resource': 'core',
      });
      expect(second.headers).toEqual({
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': String(5000 - n),
        'x-ratelimit-used': String(n),
        'x-ratelimit-reset': String(T0 / 1000 + 3600),
        'x-ratelimit-resource': 'core',
      });
      const done = renamed.complete(first.ticket!, 304);
      // A 304 gives its primary count back (seed 000, "Polling rules"), so each admission is the first.
      expect(done.headers['ratelimit-remaining']).toBe('5000');
      expect(Object.keys(shipped.complete(second.ticket!, 200).headers)).toContain('x-ratelimit-limit');
    }
  });

  it('keep their names in JSON and every other field as before', () => {
    const renamed = createLimiter({
      store: createMemoryStore(),
      clock: () => T0,
      config: { answers: { headers: { used: 'ratelimit-used' } } },
    });
    const verdict = renamed.admit({
      identity: renamed.identify({ kind: 'classic', user: 'hubot' }),
      method: 'GET',
    });
    const json = JSON.parse(JSON.stringify(verdict));
    expect(json.headers['ratelimit-used']).toBe('1');
    expect(json).toMatchObject({ allowed: true, reason: 'allowed', limit: 5000, used: 1, remaining: 4999 });
  });
});

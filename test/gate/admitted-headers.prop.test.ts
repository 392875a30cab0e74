// The headers of an answer the gate passes on: the decision's, then the limits', which win. The
// store's own admitted verdicts write theirs straight into the answer's object (headersAfter);
// every other verdict is joined. Both must give the same object, key for key and in order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinHeaders } from '../../src/gate/gate-responses.js';
import { createGate, createLimiter, type Limiter, type Token } from '../../src/index.js';
import { allowedVerdict } from '../../src/limits/answers.js';
import { LIMITS_RESOURCES } from '../../src/limits/limits-config.js';
import { AllowedVerdict } from '../../src/limits/verdict-objects.js';
import { defaultLimits, type LimitsConfig, type LimitsStore } from '../../src/limits.js';
import { fcSeed } from '../setup.js';
import { bearerFacts } from '../support/bearer-facts.js';

const shipped = defaultLimits();
// Names a decision's headers and a config's window headers may share.
const nameArb = fc.oneof(
  fc.constantFrom(
    'x-ratelimit-limit',
    'x-ratelimit-remaining',
    'x-ratelimit-used',
    'x-ratelimit-reset',
    'x-ratelimit-resource',
    'X-Accepted-Service-Permissions',
    'X-OAuth-Scopes',
    'ratelimit-limit',
    '7',
  ),
  fc.string({ minLength: 1, maxLength: 12 }),
);
const namesArb = fc.option(
  fc.record({ limit: nameArb, remaining: nameArb, used: nameArb, reset: nameArb, resource: nameArb }),
);
const configOf = (names: Partial<LimitsConfig['answers']['headers']> | null): LimitsConfig =>
  names === null
    ? shipped
    : { ...shipped, answers: { ...shipped.answers, headers: { ...shipped.answers.headers, ...names } } };
const resourceArb = fc.constantFrom(...LIMITS_RESOURCES);

describe('the headers of an admitted answer', () => {
  it(`are the decision's, then the verdict's, in that order (seed ${fcSeed})`, () => {
    fc.assert(
      fc.property(
        fc.dictionary(nameArb, fc.string({ maxLength: 8 }), { maxKeys: 4 }),
        namesArb,
        resourceArb,
        fc.integer({ min: 0, max: 1e12 }),
        fc.integer({ min: 0, max: 1e12 }),
        fc.integer({ min: 0, max: 4e9 }),
        (first, names, resource, limit, used, reset) => {
          const verdict = allowedVerdict(resource, limit, used, reset, null, configOf(names));
          expect(verdict).toBeInstanceOf(AllowedVerdict);
          const direct = (verdict as AllowedVerdict).headersAfter(first);
          expect(Object.entries(direct)).toEqual(Object.entries(joinHeaders(first, verdict.headers)));
        },
      ),
    );
  });

  const token: Token = {
    kind: 'fine-grained',
    permissions: { issues: 'read' },
    repositories: 'all',
    user: 'mona',
  };
  const facts = bearerFacts('GET', '/repos/acme/app/issues/events');

  it("carry a limiter's own verdict's headers whichever object it returns", async () => {
    // Wrappers that add a header: as a plain object, or on the store's verdict itself (an own
    // `headers` over the class's getter, by defineProperty or by Object.create).
    type Wrap = (verdict: AllowedVerdict) => unknown;
    const added = (verdict: AllowedVerdict) => ({ ...verdict.headers, 'x-wrapped': 'yes' });
    const wraps: Record<string, Wrap | null> = {
      'as made': null,
      'a plain object': (verdict) => ({ ...verdict.toJSON(), headers: added(verdict) }),
      'defineProperty on the verdict': (verdict) =>
        Object.defineProperty(verdict, 'headers', { value: added(verdict), enumerable: true }),
      'Object.create over the verdict': (verdict) =>
        Object.create(verdict, { headers: { value: added(verdict), enumerable: true } }),
    };
    for (const [name, wrap] of Object.entries(wraps)) {
      const inner = createLimiter();
      const limiter: Limiter<LimitsStore> =
        wrap === null
          ? inner
          : { ...inner, admit: (request) => wrap(inner.admit(request as never) as AllowedVerdict) as never };
      const gate = createGate({ limiter, lookupToken: () => token });
      const answer = await gate.check(facts);
      expect(answer.action, name).toBe('pass');
      expect(Object.keys(answer.headers), name).toEqual([
        'X-Accepted-Service-Permissions',
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-used',
        'x-ratelimit-reset',
        'x-ratelimit-resource',
        ...(wrap === null ? [] : ['x-wrapped']),
      ]);
      expect(answer.headers['x-ratelimit-remaining'], name).toBe('4999');
    }
  });
});

// `authorize` never throws for any request or context (README, "authorize never throws"): a value
// that cannot be read is a 400 Decision, a refusal like any bad path.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { authorize, type Decision, type PolicyRequest, type ResourceContext } from '../../src/index.js';

const token = { kind: 'classic', scopes: ['repo'], user: 'octocat' } as const;
const throwing = (field: string) =>
  Object.defineProperty({}, field, {
    enumerable: true,
    get() {
      throw new Error(`getter ${field}`);
    },
  });
const trapped = new Proxy(
  {},
  {
    get() {
      throw new Error('get trap');
    },
    has() {
      throw new Error('has trap');
    },
  },
);
const revoked = (() => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
})();
const badString = {
  toString: () => {
    throw new Error('toString');
  },
};

// Built outside fast-check's reach and picked by index: fast-check itself reads the values it
// generates (to print or clone them), which a hostile Proxy would break.
const HOSTILE: readonly unknown[] = [
  throwing('method'),
  throwing('path'),
  throwing('apiVersion'),
  throwing('visibility'),
  trapped,
  revoked,
  { method: 'GET', path: '/repos/a/b', apiVersion: badString },
  { method: Symbol('GET'), path: Symbol('/') },
  { method: 'GET', path: '/repos/a/b/issues/events', apiVersion: Symbol('v') },
];
type Picked = { value: unknown } | { hostile: number };
const anyValue: fc.Arbitrary<Picked> = fc.oneof(
  fc.anything().map((value) => ({ value })),
  fc.nat({ max: HOSTILE.length - 1 }).map((hostile) => ({ hostile })),
);
const pickedValue = (picked: Picked) => ('value' in picked ? picked.value : HOSTILE[picked.hostile]);

function isDecision(value: Decision): boolean {
  return (
    typeof value.allowed === 'boolean' &&
    Number.isInteger(value.status) &&
    typeof value.reason === 'string' &&
    typeof value.message === 'string' &&
    !value.message.includes('\n')
  );
}

describe('authorize never throws', () => {
  it('returns a Decision for any request value, hostile objects included', () => {
    fc.assert(
      fc.property(anyValue, (request) => {
        expect(isDecision(authorize(pickedValue(request) as PolicyRequest, token))).toBe(true);
      }),
    );
  });

  it('returns a Decision for any context value beside a real request', () => {
    fc.assert(
      fc.property(anyValue, (context) => {
        const decision = authorize(
          { method: 'GET', path: '/repos/acme/app/issues/events' },
          token,
          pickedValue(context) as ResourceContext,
        );
        expect(isDecision(decision)).toBe(true);
      }),
    );
  });

  it('answers 400 when the request cannot be read, and says so', () => {
    for (const request of [throwing('method'), throwing('path'), trapped, revoked]) {
      const decision = authorize(request as PolicyRequest, token);
      expect(decision).toMatchObject({ allowed: false, status: 400, reason: 'bad_path' });
      expect(decision.message).toBe('bad path: the request or its context could not be read');
    }
  });

  it('refuses (never allows) a readable request whose context throws', () => {
    const decision = authorize(
      { method: 'GET', path: '/repos/acme/app/issues/events' },
      token,
      throwing('visibility') as ResourceContext,
    );
    expect(decision.allowed).toBe(false);
    expect(decision.status).toBe(400);
  });
});

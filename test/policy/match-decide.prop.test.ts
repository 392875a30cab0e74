import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/policy/authorize.js';
import { compileTablesOrThrow } from '../../src/policy/compile-tables.js';
import { shippedSources, shippedTables } from '../../src/policy/shipped-tables.js';
import { fcRuns } from '../setup.js';
import { concretePath, contextArbitrary, tokenArbitrary } from '../support/arbitraries.js';

const tables = shippedTables();
const policy = createPolicy(tables);
const entry = fc.constantFrom(...tables.endpoints);
// Requests that match (every endpoint, filled in) and requests that may not (any method, any text,
// odd spellings): both stages must agree with `authorize` on all of them.
const matching = entry.chain((e) =>
  concretePath(tables, e).map(({ path }) => ({ method: e.method, path, apiVersion: null })),
);
const anything = fc.record({
  method: fc.oneof(fc.constantFrom('GET', 'HEAD', 'post', 'PATCH', 'BREW'), fc.string()),
  path: fc.oneof(
    fc.string(),
    matching.map((r) => r.path.toUpperCase()),
    matching.map((r) => `${r.path}//?per_page=5`),
  ),
  apiVersion: fc.constantFrom(null, undefined, '2022-11-28', '1999-01-01'),
});
const request = fc.oneof(matching, anything);

describe('authorize is decide after match', () => {
  it('decides every request as authorize does, for any token and context, the match made once', () => {
    fc.assert(
      fc.property(
        request,
        fc.array(fc.tuple(tokenArbitrary(tables), contextArbitrary), { minLength: 1, maxLength: 4 }),
        (req, askers) => {
          // One match, decided for several tokens and contexts: the match carries no state of a decision.
          const matched = policy.match(req);
          for (const [token, context] of askers)
            expect(policy.decide(matched, token, context)).toEqual(policy.authorize(req, token, context));
        },
      ),
      { numRuns: fcRuns },
    );
  });

  it("returns the table's own row for a matched endpoint, never a copy", () => {
    fc.assert(
      fc.property(
        entry.chain((e) => concretePath(tables, e).map(({ path }) => ({ e, path }))),
        ({ e, path }) => {
          const matched = policy.match({ method: e.method, path });
          expect(matched.kind).toBe('endpoint');
          if (matched.kind === 'endpoint') expect(matched.entry).toBe(e);
        },
      ),
      { numRuns: fcRuns },
    );
  });

  it("refuses a match made over other tables, by code, instead of deciding another endpoint's row", () => {
    // The same sources compiled again: equal rows, but not these tables' own.
    const other = createPolicy(compileTablesOrThrow(shippedSources));
    const matched = other.match({ method: 'GET', path: '/repos/acme/app/issues/events' });
    expect(matched.kind).toBe('endpoint');
    expect(() => policy.decide(matched, { kind: 'anonymous' })).toThrow(
      expect.objectContaining({ code: 'TOLLGATE_INVALID_INPUT' }),
    );
    // Unmatched requests carry no row: any policy decides them.
    const unknown = other.match({ method: 'GET', path: '/no/such/thing' });
    expect(policy.decide(unknown, { kind: 'anonymous' })).toEqual(
      policy.authorize({ method: 'GET', path: '/no/such/thing' }, { kind: 'anonymous' }),
    );
  });
});

// The least grant over random sets of calls to the shipped table: sufficient, minimal, never
// larger than the best alternative of each call, and agreeing with authorize() call by call.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Call } from '../../src/check/call.js';
import { checkCalls } from '../../src/check/check-calls.js';
import { leastPermissions, leastScopes } from '../../src/check/least-grant.js';
import { createPolicy } from '../../src/policy/authorize.js';
import { permissionsMeet, scopesMeet } from '../../src/policy/requirement.js';
import { heldScopes } from '../../src/policy/scope-closure.js';
import { shippedTables } from '../../src/policy/shipped-tables.js';
import type { Level, Token } from '../../src/policy/types.js';
import { fcRuns } from '../setup.js';

const tables = shippedTables();
const policy = createPolicy(tables);
const origin = { file: 'calls.txt', line: 1, column: 1 };
const endpoints = tables.endpoints;

const callArb = fc.record({
  index: fc.nat(endpoints.length - 1),
  visibility: fc.constantFrom('public' as const, 'private' as const),
});
const callsArb = fc.array(callArb, { minLength: 1, maxLength: 30 }).map((picked) =>
  picked.map(
    ({ index, visibility }): Call => ({
      method: endpoints[index]!.method,
      path: endpoints[index]!.template,
      visibility,
      origin,
      resolved: true,
    }),
  ),
);
const slugs = [...tables.permissions.keys()];
const permissionsArb = fc
  .dictionary(fc.constantFrom(...slugs), fc.constantFrom<Level>('read', 'write'), { maxKeys: 8 })
  .map(
    (granted) =>
      Object.fromEntries(
        Object.entries(granted).filter(([slug, level]) =>
          tables.permissions.get(slug)!.levels.includes(level),
        ),
      ) as Record<string, Level>,
  );
const scopeNames = [...tables.scopeClosure.keys()];
const scopesArb = fc.uniqueArray(fc.constantFrom(...scopeNames), { maxLength: 6 });

// The calls a grant can serve: matched, accepted for the kind, with a requirement the seeds show
// (certain or not: a call the tables only half know still needs what they do show).
const servable = (report: ReturnType<typeof checkCalls>) =>
  report.results.filter(
    (r) =>
      r.verdict !== 'never' &&
      r.verdict !== 'unresolved' &&
      r.decision?.endpoint != null &&
      r.decision.reason !== 'requirement_not_shown',
  );
const context = (call: Call) => ({ visibility: call.visibility ?? 'private', organizationOwner: true });
const allowedBy = (token: Token, call: Call) =>
  policy.authorize({ method: call.method, path: call.path }, token, context(call)).allowed;

describe('the least grant', () => {
  it('for fine-grained tokens: allows every call the kind can make, and no permission can go or be lowered', () => {
    fc.assert(
      fc.property(callsArb, (calls) => {
        const report = checkCalls(calls, { policy, kind: 'fine-grained' });
        if (report.grant.kind !== 'permissions') throw new Error('expected permissions');
        const grant = report.grant.permissions;
        const token: Token = { kind: 'fine-grained', permissions: grant, repositories: 'all' };
        const judged = servable(report);
        expect(report.counts.denied).toBe(0);
        for (const result of judged) expect(allowedBy(token, result.call)).toBe(true);
        // Minimal: without any one permission, or with a write lowered to read, some call is denied.
        for (const [slug, level] of Object.entries(grant)) {
          const { [slug]: _, ...without } = grant;
          const weaker: Token[] = [{ kind: 'fine-grained', permissions: without, repositories: 'all' }];
          if (level === 'write')
            weaker.push({
              kind: 'fine-grained',
              permissions: { ...without, [slug]: 'read' },
              repositories: 'all',
            });
          for (const smaller of weaker) expect(judged.some((r) => !allowedBy(smaller, r.call))).toBe(true);
        }
      }),
      { numRuns: fcRuns },
    );
  });

  it('for classic tokens: allows every call, and no scope can go', () => {
    fc.assert(
      fc.property(callsArb, (calls) => {
        const report = checkCalls(calls, { policy, kind: 'classic' });
        if (report.grant.kind !== 'scopes') throw new Error('expected scopes');
        const scopes = report.grant.scopes;
        const judged = report.results.filter((r) => r.verdict === 'allowed' || r.verdict === 'denied');
        expect(report.counts.denied).toBe(0);
        for (const result of judged)
          expect(allowedBy({ kind: 'classic', scopes: [...scopes] }, result.call)).toBe(true);
        // Minimal: without any one scope, some call is refused (a private repository hidden
        // counts: `repo` is what lets a call reach even a requirement the seeds do not show).
        const matched = report.results.filter((r) => r.decision?.endpoint != null && r.verdict !== 'never');
        const refused = (token: Token, call: Call) => {
          const decision = policy.authorize({ method: call.method, path: call.path }, token, context(call));
          return !decision.allowed && decision.reason !== 'requirement_not_shown';
        };
        for (const scope of scopes) {
          const without: Token = { kind: 'classic', scopes: scopes.filter((s) => s !== scope) };
          expect(matched.some((r) => refused(without, r.call))).toBe(true);
        }
      }),
      { numRuns: fcRuns },
    );
  });

  it('with OR alternatives is never larger than the best alternative of each need, added up', () => {
    const need = fc.array(
      fc.dictionary(fc.constantFrom(...slugs.slice(0, 6)), fc.constantFrom<Level>('read', 'write'), {
        minKeys: 1,
        maxKeys: 3,
      }),
      { minLength: 1, maxLength: 3 },
    );
    fc.assert(
      fc.property(fc.array(need, { minLength: 1, maxLength: 8 }), (needs) => {
        const grant = leastPermissions(needs);
        for (const each of needs) expect(permissionsMeet(each, grant)).toBe(true);
        const bound = needs.reduce(
          (sum, each) => sum + Math.min(...each.map((alt) => Object.keys(alt).length)),
          0,
        );
        expect(Object.keys(grant).length).toBeLessThanOrEqual(bound);
        if (needs.length === 1)
          expect(Object.keys(grant).length).toBe(
            Math.min(...needs[0]!.map((alt) => Object.keys(alt).length)),
          );
      }),
      { numRuns: fcRuns },
    );
  });

  it('of scopes meets every need with the hierarchy and keeps no scope another one implies', () => {
    const need = fc.array(fc.uniqueArray(fc.constantFrom(...scopeNames), { minLength: 1, maxLength: 2 }), {
      minLength: 1,
      maxLength: 3,
    });
    fc.assert(
      fc.property(fc.array(need, { minLength: 1, maxLength: 8 }), (needs) => {
        const grant = leastScopes(needs, tables);
        const held = heldScopes(grant, tables.scopeClosure);
        for (const each of needs) expect(scopesMeet(each, held)).toBe(true);
        for (const scope of grant) {
          const without = heldScopes(
            grant.filter((s) => s !== scope),
            tables.scopeClosure,
          );
          expect(needs.every((each) => scopesMeet(each, without))).toBe(false);
        }
      }),
      { numRuns: fcRuns },
    );
  });

  it('agrees with authorize(): a call check allows is allowed, one it denies is denied', () => {
    const tokenArb = fc.oneof(
      permissionsArb.map(
        (permissions): Token => ({ kind: 'fine-grained', permissions, repositories: 'all' }),
      ),
      scopesArb.map((scopes): Token => ({ kind: 'classic', scopes })),
    );
    fc.assert(
      fc.property(callsArb, tokenArb, (calls, token) => {
        const report = checkCalls(calls, { policy, token });
        for (const result of report.results) {
          if (result.verdict === 'allowed') expect(allowedBy(token, result.call)).toBe(true);
          if (result.verdict === 'denied' || result.verdict === 'never')
            expect(allowedBy(token, result.call)).toBe(false);
        }
        expect(report.sufficient).toBe(report.counts.denied + report.counts.never === 0);
      }),
      { numRuns: fcRuns },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/policy/authorize.js';
import { shippedTables } from '../../src/policy/shipped-tables.js';
import type { Level, Token } from '../../src/policy/types.js';
import { fcRuns } from '../setup.js';
import { concretePath, contextArbitrary, tokenArbitrary } from '../support/arbitraries.js';

const tables = shippedTables();
const policy = createPolicy(tables);
const entry = fc.constantFrom(...tables.endpoints);
const request = entry.chain((e) => concretePath(tables, e).map(({ path }) => ({ method: e.method, path })));
const slugs = [...tables.permissions.keys()];
const scopes = [...tables.scopeClosure.keys()];

function widen(token: Token, slug: string, level: Level, scope: string): Token {
  if (token.kind === 'classic' || token.kind === 'oauth-app')
    return { ...token, scopes: [...new Set([...token.scopes, scope])] };
  if ('permissions' in token) {
    const levels = tables.permissions.get(slug)!.levels;
    const current = token.permissions[slug];
    const next = current === 'write' || !levels.includes(level) ? (current ?? levels[0]!) : level;
    return { ...token, permissions: { ...token.permissions, [slug]: next } };
  }
  return token;
}

describe('authorize properties over the shipped tables', () => {
  it('never turns an allow into a deny when a scope or permission is added or raised to write', () => {
    fc.assert(
      fc.property(
        request,
        tokenArbitrary(tables),
        contextArbitrary,
        fc.constantFrom(...slugs),
        fc.constantFrom<Level>('read', 'write'),
        fc.constantFrom(...scopes),
        (req, token, context, slug, level, scope) => {
          const before = policy.authorize(req, token, context);
          const after = policy.authorize(req, widen(token, slug, level, scope), context);
          if (before.allowed) expect(after.allowed).toBe(true);
        },
      ),
      { numRuns: fcRuns },
    );
  });

  it('lets a scope allow everything that the scopes it implies allow', () => {
    const implying = scopes.filter((s) => tables.scopeClosure.get(s)!.size > 1);
    fc.assert(
      fc.property(
        request,
        fc.constantFrom(...implying),
        fc.subarray(scopes),
        contextArbitrary,
        (req, scope, others, context) => {
          const implied = [...tables.scopeClosure.get(scope)!].filter((s) => s !== scope);
          const viaImplied = policy.authorize(
            req,
            { kind: 'classic', scopes: [...others, ...implied] },
            context,
          );
          const viaScope = policy.authorize(req, { kind: 'classic', scopes: [...others, scope] }, context);
          if (viaImplied.allowed) expect(viaScope.allowed).toBe(true);
        },
      ),
      { numRuns: fcRuns },
    );
  });

  it('matches every endpoint template with random parameter values to itself, with decoded params', () => {
    fc.assert(
      fc.property(
        entry.chain((e) => concretePath(tables, e).map((c) => ({ e, ...c }))),
        ({ e, path, params }) => {
          const decision = policy.authorize({ method: e.method, path }, { kind: 'anonymous' });
          expect(decision.endpoint).toBe(e.key);
          expect({ ...decision.params }).toEqual(params);
        },
      ),
      { numRuns: fcRuns },
    );
  });

  it('never throws, whatever the method, path, version and token', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.oneof(
          fc.string(),
          request.map((r) => r.path),
        ),
        fc.option(fc.string(), { nil: undefined }),
        tokenArbitrary(tables),
        (method, path, apiVersion, token) => {
          const decision = policy.authorize(
            { method, path, ...(apiVersion === undefined ? {} : { apiVersion }) },
            token,
          );
          expect(typeof decision.status).toBe('number');
        },
      ),
      { numRuns: fcRuns },
    );
  });

  it('is deterministic: the same input gives the same decision', () => {
    fc.assert(
      fc.property(request, tokenArbitrary(tables), contextArbitrary, (req, token, context) => {
        expect(policy.authorize(req, token, context)).toEqual(policy.authorize(req, token, context));
      }),
      { numRuns: fcRuns },
    );
  });

  it('allows only with status 200 and denies only with a 4xx status', () => {
    fc.assert(
      fc.property(request, tokenArbitrary(tables), contextArbitrary, (req, token, context) => {
        const decision = policy.authorize(req, token, context);
        if (decision.allowed) expect(decision.status).toBe(200);
        else expect([400, 401, 403, 404]).toContain(decision.status);
      }),
      { numRuns: fcRuns },
    );
  });

  it('knows the repository of every endpoint whose path names one', () => {
    for (const e of tables.endpoints)
      if (/\{(repo|template_repo)\}/.test(e.template)) expect(e.repositoryParams, e.key).not.toBeNull();
  });

  it('never lets a token reach a private repository outside its selection, whatever it holds', () => {
    const everything = Object.fromEntries(
      [...tables.permissions.values()].map((p) => [p.slug, p.levels.at(-1)!]),
    );
    const repoEntries = tables.endpoints.filter((e) => e.repositoryParams !== null);
    fc.assert(
      fc.property(
        fc.constantFrom(...repoEntries).chain((e) => concretePath(tables, e).map((c) => ({ e, ...c }))),
        fc.constantFrom(
          'fine-grained' as const,
          'app-user' as const,
          'app-installation' as const,
          'workflow' as const,
        ),
        ({ e, path }, kind) => {
          const [ownerParam, repoParam] = e.repositoryParams!;
          const decision = policy.authorize(
            { method: e.method, path },
            { kind, permissions: everything, repositories: ['elsewhere/unrelated'] },
            { visibility: 'private', organizationOwner: true },
          );
          expect(decision.allowed).toBe(false);
          if (decision.reason === 'not_found') expect(decision.params[ownerParam]).toBeDefined();
          expect(decision.params[repoParam]).toBeDefined();
        },
      ),
      { numRuns: fcRuns },
    );
  });

  it('never throws for any request or context value, and throws only TOLLGATE_INVALID_TOKEN for a bad token', () => {
    const goodToken = tokenArbitrary(tables);
    fc.assert(
      fc.property(
        fc.anything(),
        fc.anything(),
        fc.oneof(goodToken, fc.anything()),
        (request, context, token) => {
          try {
            const decision = policy.authorize(request as never, token as never, context as never);
            expect(typeof decision.status).toBe('number');
          } catch (error) {
            expect((error as { code?: string }).code).toBe('TOLLGATE_INVALID_TOKEN');
          }
        },
      ),
      { numRuns: fcRuns },
    );
  });

  it("grants nothing through a permission object's prototype", () => {
    const inherited = Object.create({ issues: 'write' }) as Record<string, Level>;
    const decision = policy.authorize(
      { method: 'GET', path: '/repos/acme/app/issues/events' },
      { kind: 'fine-grained', permissions: inherited, repositories: 'all' },
    );
    expect(decision.reason).toBe('insufficient_permission');
  });
});

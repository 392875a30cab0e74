import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/policy/authorize.js';
import { compileTablesOrThrow } from '../../src/policy/compile-tables.js';
import type { Token } from '../../src/policy/types.js';
import { classic, fineGrained, policy } from '../support/small-policy.js';
import { smallPermissions, smallScopes, smallTables } from '../support/small-tables.js';

describe('authorize: requirements', () => {
  it('names what is missing and the smallest addition for a fine-grained token', () => {
    const decision = policy.authorize(
      { method: 'GET', path: '/repos/acme/app/issues/events/7' },
      fineGrained({ contents: 'read' }),
    );
    expect(decision).toMatchObject({
      status: 403,
      reason: 'insufficient_permission',
      endpoint: 'GET /repos/{owner}/{repo}/issues/events/{event_id}',
      params: { owner: 'acme', repo: 'app', event_id: '7' },
      missing: [{ issues: 'read' }, { pull_requests: 'read' }],
      addition: { kind: 'permissions', permissions: { issues: 'read' } },
      certain: true,
    });
    expect(decision.headers['X-Accepted-Service-Permissions']).toBe('issues=read; pull_requests=read');
  });

  it('treats write as implying read', () => {
    expect(
      policy.authorize(
        { method: 'GET', path: '/repos/a/b/issues/events/7' },
        fineGrained({ pull_requests: 'write' }),
      ).allowed,
    ).toBe(true);
  });

  it('needs every permission of an AND set and reports only the missing one', () => {
    const decision = policy.authorize(
      { method: 'PUT', path: '/orgs/acme/actions/variables/V/repositories/9' },
      fineGrained({ organization_variables: 'write' }),
    );
    expect(decision).toMatchObject({ allowed: false, missing: [{ metadata: 'read' }], certain: false });
    expect(decision.headers['X-Accepted-Service-Permissions']).toBe(
      'organization_variables=write,metadata=read',
    );
  });

  it('marks starred endpoints as not certain even when allowed', () => {
    const decision = policy.authorize(
      { method: 'PUT', path: '/repos/a/b/contents/docs/a.md' },
      fineGrained({ contents: 'write' }),
    );
    expect(decision).toMatchObject({ allowed: true, certain: false, params: { path: 'docs/a.md' } });
  });

  it('applies the classic scope hierarchy and the private-resource requirement', () => {
    const put = { method: 'PUT', path: '/orgs/acme/actions/variables/V/repositories/9' };
    expect(policy.authorize(put, classic('admin:org'), { visibility: 'public' }).allowed).toBe(true);
    const denied = policy.authorize(put, classic('admin:org'));
    expect(denied).toMatchObject({
      reason: 'insufficient_scope',
      addition: { kind: 'scopes', scopes: ['repo'] },
    });
    expect(denied.headers).toMatchObject({
      'X-Accepted-OAuth-Scopes': 'admin:org+repo',
      'X-OAuth-Scopes': 'admin:org',
    });
    expect(policy.authorize(put, classic('admin:org', 'repo')).allowed).toBe(true);
  });

  it('accepts any one scope of several alternatives', () => {
    expect(
      policy.authorize({ method: 'GET', path: '/notifications' }, classic('notifications')).allowed,
    ).toBe(true);
    expect(policy.authorize({ method: 'GET', path: '/notifications' }, classic('repo')).allowed).toBe(true);
    const decision = policy.authorize({ method: 'GET', path: '/notifications' }, classic('read:org'));
    expect(decision).toMatchObject({ reason: 'insufficient_scope', missing: [['notifications'], ['repo']] });
  });

  it('denies classic tokens where scopes are not shown unless configured to allow, never certain', () => {
    const request = { method: 'PUT', path: '/repos/a/b/contents/x' };
    expect(policy.authorize(request, classic('repo'))).toMatchObject({
      allowed: false,
      reason: 'requirement_not_shown',
      certain: false,
    });
    const lenient = createPolicy(smallTables(), { unshownScopes: 'allow' });
    expect(lenient.authorize(request, classic('repo'))).toMatchObject({ allowed: true, certain: false });
  });

  it('treats the workflow token as an installation token by default, or refuses it', () => {
    const token: Token = { kind: 'workflow', permissions: { issues: 'write' }, repositories: ['a/b'] };
    expect(policy.authorize({ method: 'POST', path: '/repos/a/b/issues' }, token).allowed).toBe(true);
    const strict = createPolicy(smallTables(), { workflowToken: 'deny' });
    expect(strict.authorize({ method: 'POST', path: '/repos/a/b/issues' }, token).reason).toBe(
      'token_kind_not_accepted',
    );
  });

  it('uses configured header names', () => {
    const custom = createPolicy(smallTables(), {
      headerNames: { acceptedPermissions: 'x-accepted-github-permissions' },
    });
    const decision = custom.authorize({ method: 'POST', path: '/repos/a/b/issues' }, fineGrained({}));
    expect(decision.headers).toEqual({
      'x-accepted-github-permissions': 'issues=write',
      'X-Accepted-OAuth-Scopes': 'repo',
    });
  });

  it('rejects an invalid option with a stable code', () => {
    expect(() => createPolicy(smallTables(), { unknownEndpoint: 'maybe' as 'deny' })).toThrow(
      expect.objectContaining({ code: 'TOLLGATE_INVALID_OPTION' }),
    );
  });

  it('throws TOLLGATE_INVALID_TOKEN for a value that is not a token', () => {
    expect(() =>
      policy.authorize({ method: 'GET', path: '/notifications' }, { kind: 'robot' } as unknown as Token),
    ).toThrow(expect.objectContaining({ code: 'TOLLGATE_INVALID_TOKEN' }));
  });

  it('keeps the decision fields in one documented order', () => {
    expect(Object.keys(policy.authorize({ method: 'GET', path: '/notifications' }, classic('repo')))).toEqual(
      [
        'allowed',
        'status',
        'reason',
        'message',
        'endpoint',
        'params',
        'requirement',
        'missing',
        'addition',
        'certain',
        'headers',
      ],
    );
  });

  it('answers a HEAD request like the GET of the same resource', () => {
    const decision = policy.authorize(
      { method: 'HEAD', path: '/repos/a/b/issues/events/1' },
      fineGrained({ issues: 'read' }),
    );
    expect(decision).toMatchObject({
      allowed: true,
      endpoint: 'GET /repos/{owner}/{repo}/issues/events/{event_id}',
    });
  });

  it('decides classic scopes the same way when the catalog has more scopes than a bitmask holds', () => {
    const scopes = { ...smallScopes.scopes };
    for (let i = 0; i < 40; i++) scopes[`extra:${i}`] = { implies: [] };
    const wide = createPolicy(
      compileTablesOrThrow({
        permissions: { file: 'p', value: smallPermissions },
        scopes: { file: 's', value: { ...smallScopes, scopes } },
      }),
    );
    const put = { method: 'PUT', path: '/orgs/acme/actions/variables/V/repositories/9' };
    for (const granted of [['admin:org'], ['admin:org', 'repo'], ['extra:3', 'repo'], []]) {
      const token = classic(...granted);
      expect(wide.authorize(put, token)).toEqual(policy.authorize(put, token));
      expect(wide.authorize({ method: 'GET', path: '/notifications' }, token)).toEqual(
        policy.authorize({ method: 'GET', path: '/notifications' }, token),
      );
    }
  });

  it('freezes a token it has read, so a remembered answer can never go stale', () => {
    const repositories = ['acme/app'];
    const permissions: Record<string, 'read' | 'write'> = { issues: 'write' };
    const token: Token = { kind: 'fine-grained', permissions, repositories };
    const request = { method: 'POST', path: '/repos/acme/other/issues' };
    expect(policy.authorize(request, token).reason).toBe('not_found');
    expect(() => repositories.push('ACME/Other')).toThrow(TypeError);
    expect(() => {
      repositories.length = 0;
    }).toThrow(TypeError);
    expect(() => {
      permissions.issues = 'read';
    }).toThrow(TypeError);
    expect(() => {
      (token as { kind: string }).kind = 'classic';
    }).toThrow(TypeError);
    expect(policy.authorize({ method: 'POST', path: '/repos/acme/app/issues' }, token).allowed).toBe(true);
    const widened: Token = { ...token, repositories: [...repositories, 'ACME/Other'] };
    expect(policy.authorize(request, widened).allowed).toBe(true);
  });

  it('names what is wrong with a malformed token instead of failing on a property', () => {
    for (const token of [
      { kind: 'classic' },
      { kind: 'classic', scopes: 'repo' },
      { kind: 'fine-grained', repositories: 'all' },
      { kind: 'app-user', permissions: {}, repositories: null },
    ])
      expect(() =>
        policy.authorize({ method: 'GET', path: '/notifications' }, token as unknown as Token),
      ).toThrow(expect.objectContaining({ code: 'TOLLGATE_INVALID_TOKEN' }));
  });

  it('folds the case of repository names in ASCII only', () => {
    const token = fineGrained({ issues: 'write' }, ['acme/\u212Aeys']);
    expect(policy.authorize({ method: 'POST', path: '/repos/acme/keys/issues' }, token).reason).toBe(
      'not_found',
    );
    const ascii = fineGrained({ issues: 'write' }, ['ACME/Keys']);
    expect(policy.authorize({ method: 'POST', path: '/repos/acme/keys/issues' }, ascii).allowed).toBe(true);
  });
});

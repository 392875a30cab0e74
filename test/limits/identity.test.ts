// DESIGN.md section 3, Identity, and seed 000 "Primary rate limits": who is counted, and how much.
import { describe, expect, it } from 'vitest';
import { identityOf } from '../../src/limits/identity.js';
import { primaryLimits } from '../../src/limits/primary-limit.js';
import { config } from './support.js';

describe('identityOf', () => {
  it('counts an anonymous caller per IP with 60 per hour, 10 searches and 300 lfs per minute', () => {
    expect(identityOf({ kind: 'anonymous', ip: '203.0.113.7' }, config)).toEqual({
      key: 'ip:203.0.113.7',
      caller: 'anonymous',
      limits: { core: 60, search: 10, graphql: 60, lfs: 300 },
    });
  });

  it('shares one 5,000 per hour identity across all of a user token kinds', () => {
    for (const kind of ['classic', 'fine-grained', 'app-user', 'oauth-app'] as const) {
      expect(identityOf({ kind, user: 'octocat' }, config)).toEqual({
        key: 'user:octocat',
        caller: 'user',
        limits: { core: 5000, search: 30, graphql: 5000, lfs: 3000 },
      });
    }
  });

  it('gives 15,000 to a user acting through an enterprise-cloud app or OAuth app', () => {
    for (const kind of ['app-user', 'oauth-app'] as const) {
      expect(identityOf({ kind, user: 'octocat', enterpriseCloud: true }, config).limits.core).toBe(15000);
    }
  });

  it('keeps personal access tokens at 5,000 even in an enterprise-cloud organization', () => {
    for (const kind of ['classic', 'fine-grained'] as const) {
      expect(identityOf({ kind, user: 'octocat', enterpriseCloud: true }, config).limits).toMatchObject({
        core: 5000,
        graphql: 5000,
      });
    }
  });

  it('counts an installation per installation with the scaling formula', () => {
    const identity = identityOf(
      { kind: 'app-installation', installation: '42', repositoriesCount: 50, usersCount: 30 },
      config,
    );
    expect(identity.key).toBe('installation:42');
    expect(identity.limits.core).toBe(7000);
    expect(identity.limits.graphql).toBe(7000);
  });

  it('counts client credentials per app: 5,000, or 15,000 on enterprise cloud', () => {
    expect(identityOf({ kind: 'client-credentials', app: '7' }, config)).toMatchObject({
      key: 'app:7',
      limits: { core: 5000 },
    });
    expect(
      identityOf({ kind: 'client-credentials', app: '7', enterpriseCloud: true }, config).limits.core,
    ).toBe(15000);
  });

  it('counts the workflow token per repository, case-insensitively: 1,000, or 15,000 on enterprise cloud', () => {
    expect(identityOf({ kind: 'workflow', repository: 'Octo/App' }, config)).toMatchObject({
      key: 'repository:octo/app',
      limits: { core: 1000 },
    });
    expect(
      identityOf({ kind: 'workflow', repository: 'octo/app', enterpriseCloud: true }, config).limits.core,
    ).toBe(15000);
  });

  it('throws TOLLGATE_INVALID_TOKEN for an installation count that would disable its limit', () => {
    for (const repositoriesCount of [Number.NaN, '50', -3, 1.5]) {
      expect(() =>
        identityOf({ kind: 'app-installation', installation: '1', repositoriesCount } as never, config),
      ).toThrow(
        expect.objectContaining({
          code: 'TOLLGATE_INVALID_TOKEN',
          message: expect.stringContaining('`repositoriesCount`'),
        }),
      );
    }
  });

  it('throws TOLLGATE_INVALID_TOKEN naming the valid kinds for a kind that is a prototype key', () => {
    for (const kind of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'nope']) {
      expect(() => identityOf({ kind, user: 'octocat' } as never, config)).toThrow(
        expect.objectContaining({
          code: 'TOLLGATE_INVALID_TOKEN',
          message: expect.stringMatching(new RegExp(`\`${kind}\`.*valid: anonymous, classic`)),
        }),
      );
    }
  });

  it('throws TOLLGATE_INVALID_TOKEN when the fact that keys the identity is missing', () => {
    expect(() => identityOf({ kind: 'classic' }, config)).toThrow(
      expect.objectContaining({ code: 'TOLLGATE_INVALID_TOKEN', message: expect.stringContaining('`user`') }),
    );
    expect(() => identityOf({ kind: 'anonymous' }, config)).toThrow(
      expect.objectContaining({ code: 'TOLLGATE_INVALID_TOKEN' }),
    );
  });
});

describe('primaryLimits', () => {
  it('gives a user the enterprise-cloud number only through an app or OAuth app', () => {
    expect(primaryLimits({ caller: 'user', kind: 'app-user', enterpriseCloud: true }, config).core).toBe(
      15000,
    );
    expect(primaryLimits({ caller: 'user', kind: 'oauth-app', enterpriseCloud: true }, config).core).toBe(
      15000,
    );
    expect(primaryLimits({ caller: 'user', kind: 'classic', enterpriseCloud: true }, config).core).toBe(5000);
    expect(primaryLimits({ caller: 'user', kind: 'fine-grained', enterpriseCloud: true }, config).core).toBe(
      5000,
    );
    // Without the kind, nothing says the user acts through an app: the plain user limit.
    expect(primaryLimits({ caller: 'user', enterpriseCloud: true }, config).core).toBe(5000);
  });

  it('gives authenticated callers 3,000 lfs requests per minute and 30 searches', () => {
    expect(primaryLimits({ caller: 'installation' }, config)).toEqual({
      core: 5000,
      search: 30,
      graphql: 5000,
      lfs: 3000,
    });
  });
  it('follows an overridden search row', () => {
    const custom = {
      ...config,
      primary: {
        ...config.primary,
        resources: {
          ...config.primary.resources,
          search: { windowMs: 60_000, sameAsCore: false as const, anonymous: 1, authenticated: 2 },
        },
      },
    };
    expect(primaryLimits({ caller: 'user' }, custom).search).toBe(2);
  });
});

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

describe('identities that cannot be multiplied (issue 18, item 6)', () => {
  const key = (ip: string, c = config) => identityOf({ kind: 'anonymous', ip }, c).key;

  it('counts 2001:db8::1, 2001:DB8:0::1 and 2001:db8::2 as one caller: one spelling, one /56 network', () => {
    expect(key('2001:db8::1')).toBe('ip:2001:db8::/56');
    expect(key('2001:DB8:0::1')).toBe('ip:2001:db8::/56');
    expect(key('2001:db8::2')).toBe('ip:2001:db8::/56');
    expect(key('2001:db8:0:ff:ffff::1')).toBe('ip:2001:db8::/56');
    expect(key('2001:db8:0:100::1')).toBe('ip:2001:db8:0:100::/56');
  });

  it('counts ::ffff:1.2.3.4 as the IPv4 caller 1.2.3.4', () => {
    expect(key('::ffff:1.2.3.4')).toBe('ip:1.2.3.4');
    expect(key('::FFFF:0102:0304')).toBe('ip:1.2.3.4');
    expect(key('1.2.3.4')).toBe('ip:1.2.3.4');
  });

  it('counts every text that is not an IP address as the one caller `unknown`, without throwing', () => {
    for (const garbage of [
      'unknown',
      '_hidden',
      'not an ip',
      '1.2.3.4.5',
      '01.2.3.4',
      '::g',
      ' ',
      'x'.repeat(10_000),
    ])
      expect(key(garbage)).toBe('ip:unknown');
  });

  it('takes the IPv6 prefix from the table (identity.ipv6_prefix), 128 keeping each address apart', () => {
    const exact = { ...config, identity: { ipv6Prefix: 128 } };
    expect(key('2001:db8::1', exact)).toBe('ip:2001:db8::1');
    expect(key('2001:db8::2', exact)).toBe('ip:2001:db8::2');
    expect(key('2001:db8:0:ff::1', { ...config, identity: { ipv6Prefix: 64 } })).toBe(
      'ip:2001:db8:0:ff::/64',
    );
    expect(config.identity.ipv6Prefix).toBe(56);
  });

  it('compares user logins case-insensitively (ASCII), installation and app ids exactly', () => {
    expect(identityOf({ kind: 'classic', user: 'Alice' }, config).key).toBe('user:alice');
    expect(identityOf({ kind: 'fine-grained', user: 'ALICE' }, config).key).toBe('user:alice');
    // The Kelvin sign lower-cases to `k` in Unicode: it is not the login `k`.
    expect(identityOf({ kind: 'classic', user: '\u212a' }, config).key).not.toBe('user:k');
    expect(identityOf({ kind: 'app-installation', installation: 'Ab12' }, config).key).toBe(
      'installation:Ab12',
    );
    expect(identityOf({ kind: 'client-credentials', app: 'Iv1.AbC' }, config).key).toBe('app:Iv1.AbC');
  });
});

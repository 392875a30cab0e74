// Issue 12, defects 5-8 on the policy side: each as a snippet that failed before its fix.
import { describe, expect, it } from 'vitest';
import { isTollgateError } from '../../src/core/errors.js';
import { createPolicy } from '../../src/policy/authorize.js';
import { shippedTables } from '../../src/policy/shipped-tables.js';
import type { Token } from '../../src/policy/types.js';

const policy = createPolicy(shippedTables());
const issuesWriter: Token = { kind: 'fine-grained', permissions: { issues: 'write' }, repositories: 'all' };

function thrown(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (isTollgateError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a TollgateError');
}

describe('defect 5: an endpoint whose requirement the token meets is not hidden', () => {
  const notifications: Token = { kind: 'classic', scopes: ['notifications'] };

  it('lets the `notifications` scope set a private repository’s notifications', () => {
    for (const method of ['GET', 'PUT']) {
      const decision = policy.authorize({ method, path: '/repos/o/r/notifications' }, notifications, {
        visibility: 'private',
      });
      expect([decision.status, decision.reason]).toEqual([200, 'allowed']);
    }
  });

  it('still hides a private repository from a classic token that meets nothing there', () => {
    const decision = policy.authorize({ method: 'GET', path: '/repos/o/r/issues/events' }, notifications, {
      visibility: 'private',
    });
    expect([decision.status, decision.reason]).toEqual([404, 'not_found']);
  });
});

describe('defect 6: methods fold case in ASCII only', () => {
  it('treats Unicode look-alikes as unknown methods', () => {
    for (const method of ['poſt', 'optıons', 'GEТ']) {
      const decision = policy.authorize({ method, path: '/repos/o/r/issues' }, issuesWriter);
      expect([decision.status, decision.reason]).toEqual([404, 'unknown_endpoint']);
    }
  });

  it('still folds ASCII case', () => {
    expect(policy.authorize({ method: 'post', path: '/repos/o/r/issues' }, issuesWriter).allowed).toBe(true);
  });
});

describe('defect 7: invalid permission levels and slugs throw TOLLGATE_INVALID_TOKEN with the valid choices', () => {
  const request = { method: 'GET', path: '/repos/o/r/issues/events' };
  const withPermissions = (permissions: unknown): Token =>
    ({ kind: 'fine-grained', permissions, repositories: 'all' }) as Token;

  it.each([
    [{ issues: 'admin' }, 'permission `issues` has no level `admin`; valid levels: read, write'],
    [{ issues: 'WRITE' }, 'permission `issues` has no level `WRITE`; valid levels: read, write'],
    [{ issues: true }, 'permission `issues` has no level `true`; valid levels: read, write'],
    [{ isues: 'read' }, 'unknown permission `isues` (did you mean `issues`?)'],
  ])('%j', (permissions, message) => {
    const error = thrown(() => policy.authorize(request, withPermissions(permissions)));
    expect(error.code).toBe('TOLLGATE_INVALID_TOKEN');
    expect(error.message).toContain(message);
    expect(error.message).not.toContain('\n');
  });

  it('checks a token once: the same object is not checked again, and is frozen', () => {
    const token = withPermissions({ issues: 'read' });
    expect(policy.authorize(request, token).allowed).toBe(true);
    expect(Object.isFrozen(token)).toBe(true);
    expect(Object.isFrozen((token as { permissions: object }).permissions)).toBe(true);
  });

  it('does not remember a token it refused', () => {
    const token = withPermissions({ issues: 'admin' });
    expect(thrown(() => policy.authorize(request, token)).code).toBe('TOLLGATE_INVALID_TOKEN');
    expect(thrown(() => policy.authorize(request, token)).code).toBe('TOLLGATE_INVALID_TOKEN');
    expect(Object.isFrozen(token)).toBe(false);
  });
});

describe('defect 8: smaller ones', () => {
  it('cuts a long unknown path in the message at 80 characters', () => {
    const path = `/nowhere/${'x'.repeat(100_000)}`;
    const decision = policy.authorize({ method: 'GET', path }, issuesWriter);
    expect(decision.reason).toBe('unknown_endpoint');
    expect(decision.message.length).toBeLessThan(140);
    expect(decision.message).toContain('...');
  });

  it('cuts a long unknown method too', () => {
    const decision = policy.authorize({ method: 'X'.repeat(10_000), path: '/nowhere' }, issuesWriter);
    expect(decision.message.length).toBeLessThan(140);
  });

  it('treats `apiVersion: null` as absent', () => {
    const request = { method: 'GET', path: '/repos/o/r/issues/events', apiVersion: null };
    expect(policy.authorize(request, issuesWriter).reason).toBe('allowed');
  });
});

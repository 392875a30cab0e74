import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/policy/authorize.js';
import type { Token } from '../../src/policy/types.js';
import { anonymous, classic, fineGrained, policy } from '../support/small-policy.js';
import { smallTables } from '../support/small-tables.js';

describe('authorize: decision order', () => {
  it('answers 400 bad_path before anything else', () => {
    const decision = policy.authorize({ method: 'GET', path: '/repos/a/../b/issues/events/1' }, anonymous);
    expect([decision.status, decision.reason, decision.endpoint]).toEqual([400, 'bad_path', null]);
  });

  it('answers 404 unknown_endpoint for a path outside the table, and passes it through when configured', () => {
    expect(policy.authorize({ method: 'GET', path: '/nowhere' }, anonymous)).toMatchObject({
      status: 404,
      reason: 'unknown_endpoint',
      allowed: false,
    });
    const open = createPolicy(smallTables(), { unknownEndpoint: 'pass-through' });
    expect(open.authorize({ method: 'GET', path: '/nowhere' }, anonymous)).toMatchObject({
      allowed: true,
      reason: 'pass_through',
    });
  });

  it('answers 400 for an unsupported API version and accepts the known one', () => {
    const request = { method: 'GET', path: '/repos/a/b/issues/events/1' };
    const token = fineGrained({ issues: 'read' });
    expect(policy.authorize({ ...request, apiVersion: '2099-01-01' }, token)).toMatchObject({
      status: 400,
      reason: 'unsupported_api_version',
    });
    expect(policy.authorize({ ...request, apiVersion: '2022-11-28' }, token)).toMatchObject({
      status: 200,
      allowed: true,
    });
  });

  it('lets anonymous callers read public data of a public endpoint, 404 on a private resource, 401 elsewhere', () => {
    const events = { method: 'GET', path: '/repos/a/b/issues/events/1' };
    expect(policy.authorize(events, anonymous, { visibility: 'public' })).toMatchObject({
      allowed: true,
      reason: 'public_resource',
    });
    expect(policy.authorize(events, anonymous, { visibility: 'private' })).toMatchObject({
      status: 404,
      reason: 'not_found',
    });
    expect(policy.authorize({ method: 'POST', path: '/repos/a/b/issues' }, anonymous)).toMatchObject({
      status: 401,
      reason: 'authentication_required',
    });
  });

  it('lets client credentials read public data only', () => {
    const token: Token = { kind: 'client-credentials', app: '1' };
    expect(
      policy.authorize({ method: 'GET', path: '/repos/a/b/issues/events/1' }, token, { visibility: 'public' })
        .allowed,
    ).toBe(true);
    expect(
      policy.authorize({ method: 'POST', path: '/repos/a/b/issues' }, token, { visibility: 'public' }),
    ).toMatchObject({ status: 403, reason: 'token_kind_not_accepted' });
  });

  it('refuses a token kind the endpoint does not accept with 403', () => {
    const decision = policy.authorize(
      { method: 'GET', path: '/notifications' },
      fineGrained({ issues: 'write' }),
    );
    expect(decision).toMatchObject({ status: 403, reason: 'token_kind_not_accepted' });
    const installation: Token = {
      kind: 'app-installation',
      permissions: { contents: 'write' },
      repositories: 'all',
    };
    expect(policy.authorize({ method: 'POST', path: '/repos/a/b/transfer' }, installation).reason).toBe(
      'token_kind_not_accepted',
    );
  });

  it('hides a private repository outside the token selection with 404, whatever the permissions', () => {
    const token = fineGrained({ issues: 'write' }, ['acme/other']);
    expect(policy.authorize({ method: 'POST', path: '/repos/acme/app/issues' }, token)).toMatchObject({
      status: 404,
      reason: 'not_found',
    });
    const selected = fineGrained({ issues: 'write' }, ['ACME/App']);
    expect(policy.authorize({ method: 'POST', path: '/repos/acme/app.git/issues' }, selected).allowed).toBe(
      true,
    );
  });

  it('hides a private repository from a classic token without repo with 404', () => {
    const decision = policy.authorize(
      { method: 'GET', path: '/repos/a/b/environments/prod/variables' },
      classic('notifications'),
    );
    expect(decision).toMatchObject({
      status: 404,
      reason: 'not_found',
      addition: { kind: 'scopes', scopes: ['repo'] },
    });
  });

  it('requires an organization owner where the table says so', () => {
    const token = classic('admin:org');
    expect(policy.authorize({ method: 'GET', path: '/orgs/acme/migrations' }, token)).toMatchObject({
      status: 403,
      reason: 'organization_owner_required',
    });
    expect(
      policy.authorize({ method: 'GET', path: '/orgs/acme/migrations' }, token, { organizationOwner: true }),
    ).toMatchObject({
      reason: 'requirement_not_shown',
      certain: false,
    });
  });
});

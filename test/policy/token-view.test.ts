// A token's read view is kept on the token itself (a symbol-keyed, non-enumerable property), and
// used only for the very object it was read from.
import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/policy/authorize.js';
import { shippedTables } from '../../src/policy/shipped-tables.js';
import type { Token } from '../../src/policy/types.js';

const policy = createPolicy(shippedTables());
const create = { method: 'POST', path: '/repos/acme/app/issues' };
const writer = (): Token => ({ kind: 'fine-grained', permissions: { issues: 'write' }, repositories: 'all' });

describe('the token view kept on the token', () => {
  it('leaves what the token shows unchanged: keys, JSON, spreads', () => {
    const token = writer();
    const before = { keys: Object.keys(token), json: JSON.stringify(token) };
    expect(policy.authorize(create, token).allowed).toBe(true);
    expect({ keys: Object.keys(token), json: JSON.stringify(token) }).toEqual(before);
    expect(Object.getOwnPropertySymbols({ ...token })).toEqual([]);
  });

  it('reads an object inheriting from a read token for itself, not as its prototype', () => {
    const parent = writer();
    expect(policy.authorize(create, parent).allowed).toBe(true);
    const child = Object.create(parent, {
      permissions: { value: { issues: 'read' }, enumerable: true },
    }) as Token;
    expect(policy.authorize(create, child).reason).toBe('insufficient_permission');
    expect(policy.authorize(create, parent).allowed).toBe(true);
  });

  it('reads a token frozen before its first use, and remembers it', () => {
    const token = Object.freeze(writer());
    expect(policy.authorize(create, token).allowed).toBe(true);
    expect(policy.authorize(create, token).allowed).toBe(true);
  });

  it('reads a proxy that forwards symbols to a read token as the proxy, not through that view', () => {
    const read = writer();
    expect(policy.authorize(create, read).allowed).toBe(true);
    const own = { kind: 'fine-grained', permissions: { issues: 'read' }, repositories: 'all' };
    const forwarding = new Proxy(own, {
      get: (object, key) => Reflect.get(typeof key === 'symbol' ? read : object, key),
    }) as Token;
    expect(policy.authorize(create, forwarding).reason).toBe('insufficient_permission');
  });

  it('lets another policy read a token one policy has read (and frozen)', () => {
    const token: Token = { kind: 'classic', scopes: ['public_repo'] };
    const other = createPolicy(shippedTables(), { unknownEndpoint: 'deny' });
    const fresh = other.authorize(create, { kind: 'classic', scopes: ['public_repo'] });
    expect(policy.authorize(create, token).allowed).toBe(false);
    expect(other.authorize(create, token)).toEqual(fresh);
    expect(other.authorize(create, token)).toEqual(fresh);
  });
});

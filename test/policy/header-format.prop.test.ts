import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatAcceptedPermissions,
  formatAcceptedScopes,
  parseAcceptedPermissions,
  parseAcceptedScopes,
} from '../../src/policy/header-format.js';
import { shippedTables } from '../../src/policy/shipped-tables.js';
import { fcRuns } from '../setup.js';

const slug = fc.stringMatching(/^[a-z][a-z_]{0,20}$/);
const scope = fc.stringMatching(/^[a-z_]{1,12}(:[a-z_]{1,10})?$/);

describe('requirement headers', () => {
  it('parse back into the permission requirement they came from', () => {
    const requirement = fc.array(
      fc.dictionary(slug, fc.constantFrom('read' as const, 'write' as const), { minKeys: 1, maxKeys: 4 }),
      { minLength: 1, maxLength: 4 },
    );
    fc.assert(
      fc.property(requirement, (r) => {
        expect(parseAcceptedPermissions(formatAcceptedPermissions(r))).toEqual(r);
      }),
      { numRuns: fcRuns },
    );
  });

  it('parse back into the scope requirement they came from', () => {
    const requirement = fc.array(fc.uniqueArray(scope, { minLength: 1, maxLength: 3 }), {
      minLength: 1,
      maxLength: 4,
    });
    fc.assert(
      fc.property(requirement, (r) => {
        expect(parseAcceptedScopes(formatAcceptedScopes(r))).toEqual(r);
      }),
      { numRuns: fcRuns },
    );
  });

  it('round-trip every requirement of the shipped table', () => {
    for (const entry of shippedTables().endpoints) {
      if (entry.fineGrained === null || entry.acceptedPermissionsHeader === '') continue;
      expect(parseAcceptedPermissions(entry.acceptedPermissionsHeader!)).toEqual(entry.fineGrained);
    }
  });

  it('writes the seed example in the documented form', () => {
    expect(formatAcceptedPermissions([{ issues: 'read' }, { pull_requests: 'read' }])).toBe(
      'issues=read; pull_requests=read',
    );
  });
});

// Tokens the authorize tests spell often, over the small tables (test/support/small-tables.ts).
import { createPolicy } from '../../src/policy/authorize.js';
import type { Token } from '../../src/policy/types.js';
import { smallTables } from './small-tables.js';

export const policy = createPolicy(smallTables());
export const fineGrained = (
  permissions: Record<string, 'read' | 'write'>,
  repositories: 'all' | string[] = 'all',
): Token => ({
  kind: 'fine-grained',
  permissions,
  repositories,
});
export const classic = (...scopes: string[]): Token => ({ kind: 'classic', scopes });
export const anonymous: Token = { kind: 'anonymous' };

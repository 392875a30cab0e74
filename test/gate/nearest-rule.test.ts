// The IETF fields of admitted requests over the memory store (see nearest-rule.case.ts), and
// nearestRule itself for a refused request.
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/index.js';
import { defaultLimits } from '../../src/limits/default-limits.js';
import { nearestRule } from '../../src/limits/nearest-rule.js';
import { unpackState } from '../../src/limits/state-layout.js';
import { nearestRuleContract } from './nearest-rule.case.js';

describe('standardHeaders over the memory store: the rule nearest exhaustion', () => {
  nearestRuleContract(() => createMemoryStore());

  it('ranks a refused request by the state as it is (nothing of it charged)', () => {
    // A new identity, a search refused by nothing yet charged: search 30 of 30, whole, reported.
    const charge = {
      resource: 'search' as const,
      limit: 30,
      cost: 1,
      countsPrimary: true,
      content: true,
      graphql: false,
      admitted: false,
    };
    expect(nearestRule(undefined, defaultLimits(), charge, 1_700_000_000_000)).toEqual({
      name: 'search',
      quota: 30,
      remaining: 30,
      windowSeconds: 60,
      resetSeconds: 60,
      unit: null,
    });
    // In flight 100 of 100 when it arrived: the concurrency rule is the one exhausted.
    const state = { ...unpackState(new Array<number>(16).fill(0), 0), at: 1_700_000_000_000, inFlight: 100 };
    expect(nearestRule(state, defaultLimits(), charge, 1_700_000_000_000)).toMatchObject({
      name: 'concurrency',
      remaining: 0,
      resetSeconds: 1,
    });
  });
});

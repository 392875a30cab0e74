// A custom store answers the completion or release of a ticket it does not hold (a copy, a forgery,
// one already settled) with the identity's current numbers and changes nothing. The memory store
// does it with the internal `unheldVerdict` over its packed row; the public way, documented in
// docs/limits.md ("Tickets are handles"), is the verdict `step` gives for a release, with the state
// kept as it was. This checks the two answers are the same, for any state reached by admissions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IdentityState } from '../../src/limits/identity-state.js';
import type { Ticket } from '../../src/limits/limit-event.js';
import type { LimitsResource } from '../../src/limits/limits-config.js';
import { packState, STATE_WIDTH } from '../../src/limits/state-layout.js';
import { step } from '../../src/limits/step.js';
import { unheldVerdict } from '../../src/limits/step-finish.js';
import { tinyConfig } from './support.js';

const RESOURCES: readonly LimitsResource[] = ['core', 'search', 'graphql', 'lfs'];

const admission = fc.record({
  dt: fc.integer({ min: 0, max: 4_000 }),
  resource: fc.constantFrom(...RESOURCES),
  cost: fc.constantFrom(1, 5),
  content: fc.boolean(),
  graphql: fc.boolean(),
  countsPrimary: fc.boolean(),
});

type Admission = typeof admission extends fc.Arbitrary<infer T> ? T : never;

/** The state after a run of admissions (from t0), and the tickets they handed out. */
function run(admissions: readonly Admission[], t0: number) {
  let state: IdentityState | undefined;
  let now = t0;
  const tickets: Ticket[] = [];
  admissions.forEach((a, i) => {
    now += a.dt;
    const limit = a.resource === 'core' || a.resource === 'graphql' ? 4 : 2;
    const event = { kind: 'admit', key: 'user:octocat', limit, ...a } as const;
    const result = step(state, event, now, tinyConfig, i + 1);
    state = result.state;
    if (result.verdict.ticket !== null) tickets.push(result.verdict.ticket);
  });
  return { state, now, tickets };
}

describe('the answer to a ticket the store does not hold', () => {
  it('is the verdict step gives for its release, read on the unchanged state', () => {
    fc.assert(
      fc.property(
        fc.array(admission, { maxLength: 30 }),
        fc.integer({ min: 0, max: 30_000 }),
        fc.constantFrom(...RESOURCES),
        fc.integer({ min: 0, max: 8 }),
        fc.oneof(fc.constant(Number.NaN), fc.integer({ min: -2_000, max: 20_000 })),
        (admissions, t0, forgedResource, pick, later) => {
          const { state, now, tickets } = run(admissions, 1_700_000_000_000 + t0);
          // One of the run's tickets (settled already, say) or a forged one.
          const ticket: Ticket = tickets[pick] ?? {
            key: 'user:octocat',
            resource: forgedResource,
            graphql: false,
            limit: 4,
            countedReset: 0,
            hint: -1,
            id: 99,
          };
          const at = Number.isNaN(later) ? later : now + later;
          const row = new Float64Array(STATE_WIDTH);
          if (state !== undefined) packState(state, row, 0);
          const expected = unheldVerdict(row, 0, ticket, at, tinyConfig);
          const answered = step(state, { kind: 'release', ticket, cpuMs: 0 }, at, tinyConfig).verdict;
          expect(JSON.stringify(answered)).toBe(JSON.stringify(expected));
          expect(answered.headers).toEqual(expected.headers);
        },
      ),
    );
  });
});

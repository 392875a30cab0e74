// retryDelay never sends a request that the limiter would refuse for the same reason: from any
// state, a client that obeys the delay of a denial is not denied again by the same rule (rules
// whose free-up time depends on time alone; concurrency frees up when other requests finish).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IdentityState } from '../../src/limits/identity-state.js';
import type { AdmitEvent, Ticket } from '../../src/limits/limit-event.js';
import type { LimitsResource } from '../../src/limits/limits-config.js';
import { retryDelay } from '../../src/limits/retry-delay.js';
import { step } from '../../src/limits/step.js';
import { config, T0, tinyConfig } from './support.js';

const LIMITS: Record<LimitsResource, number> = { core: 4, search: 2, graphql: 4, lfs: 3 };

const requestArb = fc.record({
  resource: fc.constantFrom<LimitsResource>('core', 'search', 'graphql', 'lfs'),
  cost: fc.nat(8),
  content: fc.boolean(),
  graphql: fc.boolean(),
});

describe.each([
  ['tiny numbers', tinyConfig],
  ['shipped numbers', config],
])('retryDelay against the limiter (%s)', (_name, cfg) => {
  it('a retry after the delay is never refused for the same reason', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(requestArb, fc.nat(3_000), fc.nat(2_500)), { maxLength: 120 }),
        requestArb,
        (history, request) => {
          let state: IdentityState | undefined;
          let now = T0;
          const event = (r: typeof request): AdmitEvent => ({
            kind: 'admit',
            key: 'user:a',
            limit: LIMITS[r.resource],
            countsPrimary: true,
            ...r,
          });
          // Build a state: requests that finish at once, with CPU time, at random intervals.
          for (const [r, advance, cpuMs] of history) {
            now += advance;
            const { state: s, verdict } = step(state, event(r), now, cfg);
            state = s;
            if (verdict.ticket)
              state = step(
                state,
                { kind: 'complete', ticket: verdict.ticket as Ticket, status: 200, cpuMs },
                now,
                cfg,
              ).state;
          }
          const denied = step(state, event(request), now, cfg).verdict;
          fc.pre(!denied.allowed && denied.rule !== 'concurrency');
          const delay = retryDelay(
            { status: denied.status!, headers: denied.headers, body: denied.body },
            1,
            { now },
          );
          expect(delay).not.toBeNull();
          const retried = step(state, event(request), now + delay!, cfg).verdict;
          expect(retried.rule).not.toBe(denied.rule);
        },
      ),
    );
  });
});

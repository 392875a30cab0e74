// A state handed to `step` with times that are not whole milliseconds (made by hand, or by a clock
// such as `performance.timeOrigin + performance.now()` in a custom store) is read with each time
// rounded up: exactly as the whole-ms state it rounds to, so it never admits more than that state.
// Before, a log's single entry at a fractional age unpacked as 8,388,609 points and the next
// request was refused for REST points.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IdentityState } from '../../src/limits/identity-state.js';
import { step } from '../../src/limits/step.js';
import { fcRuns } from '../setup.js';
import { admitEvent, config, T0, tinyConfig } from './support.js';

/** `state` with `at` and every log entry's time moved `by` (0 < by < 1) ms earlier. */
function earlier(state: IdentityState, by: number): IdentityState {
  return {
    ...state,
    at: state.at - by,
    logs: state.logs?.map((flat) => flat.map((value, k) => (k % 2 === 0 ? value - by : value))),
  };
}

const eventArb = fc.record({
  advance: fc.integer({ min: 0, max: 4_000 }),
  cost: fc.constantFrom(1, 5),
  content: fc.boolean(),
  resource: fc.constantFrom('core' as const, 'search' as const),
});

describe('step over a state with fractional times', () => {
  it('refuses no request a whole-ms state would admit: one request, then the next at once (shipped limits)', () => {
    const first = step(undefined, admitEvent(), T0, config).state;
    const shifted = earlier(first, 0.5);
    expect(shifted.at % 1).not.toBe(0);
    const next = step(shifted, admitEvent(), T0 + 1, config);
    expect(next.verdict.allowed).toBe(true);
    expect(next.state).toEqual(step(first, admitEvent(), T0 + 1, config).state);
  });

  it('answers exactly as the whole-ms state the times round up to, event after event', () => {
    fc.assert(
      fc.property(
        fc.array(eventArb, { minLength: 1, maxLength: 40 }),
        fc.double({ min: 0.001, max: 0.999, noNaN: true }),
        fc.integer({ min: 0, max: 39 }),
        fc.constantFrom(config, tinyConfig),
        (events, by, at, limits) => {
          let state: IdentityState | undefined;
          let now = T0;
          for (const [i, e] of events.entries()) {
            now += e.advance;
            const event = admitEvent({ cost: e.cost, content: e.content, resource: e.resource });
            if (i === at % events.length && state !== undefined) {
              const whole = step(state, event, now, limits);
              const fractional = step(earlier(state, by), event, now, limits);
              expect(JSON.stringify(fractional.verdict)).toBe(JSON.stringify(whole.verdict));
              expect(fractional.state).toEqual(whole.state);
            }
            state = step(state, event, now, limits).state;
          }
        },
      ),
      { numRuns: fcRuns },
    );
  });
});

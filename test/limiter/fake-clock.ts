// A clock the limiter tests move by hand.
import { T0 } from '../limits/support.js';

/** A fake clock the test moves by hand. */
export function fakeClock(start = T0) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

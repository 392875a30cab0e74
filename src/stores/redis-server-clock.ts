/** How far the Redis server's clock is from ours, so an admission's deadline can be written in the server's time. */

/**
 * The client's `TIME` command, when it has one (ioredis `Redis` and `Cluster` do).
 * @example
 * import { createServerClock } from './redis-server-clock.js';
 * createServerClock({}).known(); // undefined (no `time`: no offset)
 */
export interface TimeClientLike {
  time?(): Promise<unknown>;
}

/**
 * The server's clock as a Redis store reads it.
 * @example
 * import { Redis } from 'ioredis';
 * import { createServerClock } from './redis-server-clock.js';
 * await createServerClock(new Redis()).offset(); // a few ms, our clock to the server's
 */
export interface ServerClock {
  /** The offset, measured first if it never was (undefined: the client has no `time`, or it failed). */
  offset(): Promise<number | undefined>;
  /**
   * The offset without waiting: a number, undefined when the client has no `time`, or null while
   * it was never measured (then `offset()` measures it).
   */
  known(): number | undefined | null;
}

const REFRESH_MS = 60_000;
/** Samples older than this no longer bound the offset (clocks drift, or are set). */
const FORGET_MS = 600_000;

/**
 * The server's clock as seen from here. The offset is measured with `TIME` (once at first use,
 * then every minute in the background) as server time minus the local time the reply arrived,
 * the highest of the last ten minutes: never more than the true offset, so a deadline computed
 * with it is never later than the caller's own. Undefined until measured, or when the client has no `time`.
 * @example
 * import { createServerClock } from './redis-server-clock.js';
 * const clock = createServerClock({ time: async () => [String(Math.floor(Date.now() / 1000)), '0'] });
 * typeof (await clock.offset()); // 'number'
 */
export function createServerClock(client: TimeClientLike): ServerClock {
  let offset: number | undefined;
  let measuredAt = -Infinity;
  let boundSince = 0;
  let measuring: Promise<void> | undefined;

  const measure = (): Promise<void> => {
    measuring ??= (async () => {
      try {
        const reply = (await client.time!()) as [string, string];
        const received = Date.now();
        const serverMs = Number(reply[0]) * 1000 + Math.floor(Number(reply[1]) / 1000);
        if (Number.isFinite(serverMs)) {
          // Each sample is a lower bound (a reply read late, on a busy loop, gives a low one): the
          // highest recent one is the closest.
          const sample = serverMs - received;
          const fresh = offset === undefined || received - boundSince > FORGET_MS;
          if (fresh) boundSince = received;
          offset = fresh ? sample : Math.max(offset!, sample);
        }
        measuredAt = received;
      } catch {
        // No offset this time: admissions go without a deadline until a measurement succeeds.
      } finally {
        measuring = undefined;
      }
    })();
    return measuring;
  };

  const timed = typeof client.time === 'function';
  return {
    async offset() {
      if (!timed) return undefined;
      if (offset === undefined) await measure();
      else if (Date.now() - measuredAt > REFRESH_MS) void measure();
      return offset;
    },
    known() {
      if (!timed) return undefined;
      if (offset === undefined) return null;
      if (Date.now() - measuredAt > REFRESH_MS) void measure();
      return offset;
    },
  };
}

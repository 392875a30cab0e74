// Diagnostics of the redis scenario (bench/redis.mjs): the floor function, and Redis's own time per op.

/** Top-level commands of the ops measured (a script's inner commands are counted inside these). */
const TOP_LEVEL = ['fcall', 'evalsha', 'eval', 'ping'];

/**
 * Counts since the last RESETSTAT, read with one INFO commandstats, of the commands `names`: calls,
 * µs, and calls that failed (an error raised, a script's included) or were refused; summed over
 * the names, 0 for a command not called.
 */
export async function commandStats(client, names) {
  const info = await client.info('commandstats');
  const sum = { calls: 0, usec: 0, failed: 0, rejected: 0 };
  for (const name of names) {
    const line = new RegExp(`cmdstat_${name}:(\\S+)`).exec(info)?.[1] ?? '';
    const field = (key) => Number(new RegExp(`(?:^|,)${key}=(\\d+)`).exec(line)?.[1] ?? 0);
    sum.calls += field('calls');
    sum.usec += field('usec');
    sum.failed += field('failed_calls');
    sum.rejected += field('rejected_calls');
  }
  return sum;
}

/** Redis's own µs since the last RESETSTAT in the ops' top-level commands. */
export const serverMicros = async (client) => (await commandStats(client, TOP_LEVEL)).usec;

/**
 * Diagnostic floor: one Redis 7 function that does what any one-round-trip admission on the
 * server's clock must do, and nothing else: read the clock (TIME), read one identity's state (GET)
 * and write a blob of the same size back with its expiry (SET PX). No decision, no ticket, no log.
 */
export const FLOOR_LIBRARY = `#!lua name=tollgate_bench_floor
redis.register_function('tollgate_bench_floor', function(keys, args)
  local time = redis.call('TIME')
  local blob = redis.call('GET', keys[1]) or string.rep('x', tonumber(args[1]))
  redis.call('SET', keys[1], blob, 'PX', 3600000)
  return { 1, tonumber(time[1]) }
end)
`;

// Diagnostics of the redis scenario (bench/redis.mjs): the floor function, and Redis's own time per op.

/** Top-level commands of the ops measured (a script's inner commands are counted inside these). */
const TOP_LEVEL = ['fcall', 'evalsha', 'eval', 'ping'];

/** Redis's own µs since the last RESETSTAT in the ops' top-level commands (INFO commandstats). */
export async function serverMicros(client) {
  const info = await client.info('commandstats');
  let usec = 0;
  for (const name of TOP_LEVEL)
    usec += Number(new RegExp(`cmdstat_${name}:calls=\\d+,usec=(\\d+)`).exec(info)?.[1] ?? 0);
  return usec;
}

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

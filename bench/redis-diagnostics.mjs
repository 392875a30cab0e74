// Diagnostics of the redis scenario (bench/redis.mjs): the floor function, and Redis's own time per op.

/** Top-level commands of the ops measured (a script's inner commands are counted inside these). */
const TOP_LEVEL = ['fcall', 'evalsha', 'eval', 'ping'];

/**
 * A command's counts since the last RESETSTAT (INFO commandstats): calls, µs, and calls that failed
 * (an error raised, a script's included) or were refused; 0 for a command not called.
 */
export async function commandStats(client, name) {
  const info = await client.info('commandstats');
  const line = new RegExp(`cmdstat_${name}:(\\S+)`).exec(info)?.[1] ?? '';
  const field = (key) => Number(new RegExp(`(?:^|,)${key}=(\\d+)`).exec(line)?.[1] ?? 0);
  return {
    calls: field('calls'),
    usec: field('usec'),
    failed: field('failed_calls'),
    rejected: field('rejected_calls'),
  };
}

/** The sum of `key` ('calls' or 'usec') over the commands `names` since the last RESETSTAT. */
export async function commandsTotal(client, names, key) {
  let total = 0;
  for (const name of names) total += (await commandStats(client, name))[key];
  return total;
}

/** Redis's own µs since the last RESETSTAT in the ops' top-level commands. */
export const serverMicros = (client) => commandsTotal(client, TOP_LEVEL, 'usec');

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

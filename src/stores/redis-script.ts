/** The limits transition as one Lua script: what `stepInto` and the memory store's ticket ledger do, inside Redis. */
import type { LimitsConfig } from '../limits/limits-config.js';
import { logPlan } from '../limits/log-rules.js';
import { admitLua } from './redis-admit-script.js';
import { logsLua } from './redis-log-script.js';
import { luaFunctions } from './redis-script-functions.js';
import { settleLua } from './redis-settle-script.js';

/** Rules in the order the script names them (its denial answers carry the 1-based index). */
export const SCRIPT_RULES = [
  'primary',
  'concurrency',
  'rest_points',
  'graphql_points',
  'cpu',
  'graphql_cpu',
  'content_per_minute',
  'content_per_hour',
] as const;

/** Resources in the order the script numbers them. */
export const SCRIPT_RESOURCES = ['core', 'search', 'graphql', 'lfs'] as const;

/**
 * The formats of the one argument of a call, by op (redis-protocol.ts writes them): seven bytes
 * (op, resource, content, graphql, counts-primary, clock given, deadline given), then the clock
 * reading and the op's numbers as little-endian doubles. Their lengths differ (39, 55, 47, 15
 * bytes): the script tells them apart by length.
 */
export const ARGS_FORMATS = {
  /** `a`: limit, cost, deadline. */
  admit: '<BBBBBBBdddd',
  /** `x`: limit, cost, deadline, status, CPU ms. */
  atOnce: '<BBBBBBBdddddd',
  /** `c` and `r`: status, CPU ms, ticket id, counted reset. */
  settle: '<BBBBBBBddddd',
  /** `z`. */
  reset: '<BBBBBBBd',
} as const;

/** The bytes a struct format of bytes (B) and doubles (d) reads. */
const argsLength = (format: string) =>
  [...format].reduce((n, c) => n + (c === 'd' ? 8 : c === 'B' ? 1 : 0), 0);

/**
 * The library's two entries. \`run\`: one event (KEYS[1], ARGV[1]). \`run_batch\`: the events of
 * one send (KEYS[i] with ARGV[i]), in order, one answer each: what the calls would answer one by
 * one, but one \`FCALL\` and one \`TIME\` for them all (Redis's cost per call and per \`TIME\` is
 * most of a call's cost beyond the decision: see redis-send-queue.ts). The events share the
 * server's reading, read by the first event that needs it; a batch runs in under a millisecond
 * (16 events at about 25 µs each). An event that raises an error answers that error alone (\`pcall\`), the
 * events before it applied and those after it still run, as separate calls would.
 */
const LIBRARY_ENTRIES = `local function run(keys, argv)
  server_now = nil
  return one(keys[1], argv[1])
end
local function run_batch(keys, argv)
  server_now = nil
  local answers = {}
  for i = 1, #keys do
    local ok, answer = pcall(one, keys[i], argv[i])
    if ok then answers[i] = answer
    elseif type(answer) == 'table' and answer.err then answers[i] = answer
    else answers[i] = { err = tostring(answer) } end
  end
  return answers
end
`;

/**
 * The limits code for one config; as a library, the function `one(key, arg)` handles one event
 * and `run` and `run_batch` call it (LIBRARY_ENTRIES; as a script, the same code runs at its top
 * level for KEYS[1] and ARGV[1]): its numbers are written
 * into the code, so a config is one library (or script), loaded once. KEYS[1] is the identity's
 * one key (hash-tagged by the identity), read with one GET and written with one SET: its state as
 * 18 MessagePack numbers (the 16 of IdentityState, a rule counted in a log holding its log's
 * number: see redis-log-script.ts; the last ticket id: ids only grow, from the admission's time
 * times 1,024, so none is handed out twice; a time no held ticket's lease ends before, 0 while
 * none is held), then the logs longer than one entry, then the tickets held, 16 bytes each (id,
 * lease end: big-endian doubles) in the order handed out. ARGV[1] is one binary string
 * (ARGS_FORMATS): the op (`a` admit, `x` admit and settle at once, `c` complete, `r` release, `z`
 * reset), the resource's number, content, graphql, counts-primary, whether a clock reading and a
 * deadline are given (else the server's own `TIME`, and no deadline), then the clock reading and
 * the op's numbers (limit, cost, deadline on the server's clock; status, CPU ms; ticket id and
 * counted reset). The answer is one string of little-endian doubles (decodeAnswer). Every
 * number is an integer below 2^53 (or the caller's clock as given) and every operation the one
 * `stepInto` does, in the same IEEE doubles, so the answers are the memory store's (a
 * differential test holds them to it).
 */
function limitsCode(config: LimitsConfig, asLibrary: boolean): string {
  const { primary, secondary } = config;
  const { uses } = logPlan(config);
  const windows = [
    primary.windowMs,
    primary.resources.search.windowMs,
    primary.resources.graphql.windowMs,
    primary.resources.lfs.windowMs,
  ];
  const code = `-- tollgate limits (generated from a LimitsConfig; see src/stores/redis-script.ts)
-- The library functions the code calls most, as upvalues (a global is two table lookups a use),
-- taken at the first call (a function library is loaded where the libraries are not visible).
local floor, ceil, max, min, spack, sunpack, sub, mpack, munpack_limit, concat, unpack_all, HUGE
local WINDOWS = { ${windows.join(', ')} }
local CONCURRENCY = ${secondary.concurrency.limit}
local LEASE_MS = ${secondary.concurrency.leaseMs}
local PW = ${secondary.points.windowMs}
local REST = ${secondary.points.rest}
local GQL = ${secondary.points.graphql}
local CPU = ${secondary.cpu.totalMs}
local GQL_CPU = ${secondary.cpu.graphqlMs}
local PER_MINUTE = ${secondary.content.perMinute}
local PER_HOUR = ${secondary.content.perHour}
local MINUTE = 60000
local HOUR = 3600000
local SKEW = 1000
local CONCURRENCY_RETRY_MS = 1000
-- The op codes (the argument's first byte).
local ADMIT, AT_ONCE, COMPLETE, RESET = 97, 120, 99, 122
-- The value as read, its state's numbers and its time as read (the packed logs' ages count from
-- it); in a library, the call's keys and arguments (set by each call: the code is loaded once).
local raw, s, at0
-- The expiry the value as read was written with, when known (written_expiry), else -1.
local kept_until
-- The server's clock, read once per call (once per batch: \`run_batch\`): the time of the event
-- (unless the caller gives one) and the clock an admission's deadline is checked on.
local server_now
local function server_clock()
  if not server_now then
    local time = redis.call('TIME')
    -- Strings in arithmetic are read as numbers (no call of tonumber).
    server_now = time[1] * 1000 + floor(time[2] / 1000)
  end
  return server_now
end
-- The state's numbers as a table, the offset before them kept (MessagePack's \`unpack_limit\`).
local offset
local function header(at, ...)
  offset = at
  return { ... }
end
-- The state's numbers as MessagePack (each a separate object, so the value can be read 18 at a
-- time), passed by \`unpack_all\` (Lua's \`unpack\`: one call, where 18 reads of \`s\` are 18 instructions).
local function pack_state() return mpack(unpack_all(s, 1, 18)) end
${logsLua(config)}
${luaFunctions(uses, logPlan(config).spans)}

-- The value expires when its last window ends, its last bucket is full, its last log entry left
-- and its last lease ran out (a held ticket keeps \`inFlight\` above 0, so \`t + LEASE_MS\` counts,
-- and the last ticket handed out holds the latest lease): then it is worth no more than no value
-- at all. Relative to t, so an injected test clock and the server's own agree on how long it
-- lives; t may run up to SKEW ahead of the server's clock, so it never expires early. The
-- tickets' bytes are \`held\` then \`added\` (a ticket an admission adds, with its \`lease\` end: the
-- latest; or the tickets after the one a completion removed; or nil).
local function save(key, t, logs, held, added, lease)
  local expires = expires_at(s, logs)
  if not lease then
    local last = held
    if added and #added > 0 then last = added end
    if #last > 0 then lease = sunpack('>d', last, #last - 7) end
  end
  if lease and lease > expires then expires = lease end
  if expires <= t then
    redis.call('DEL', key)
    return
  end
  NPARTS = 1 -- PARTS[1]: the state, packed once save_logs wrote its logs' numbers
  save_logs(logs, t)
  PARTS[1] = pack_state()
  NPARTS = NPARTS + 1
  PARTS[NPARTS] = held
  if added then
    NPARTS = NPARTS + 1
    PARTS[NPARTS] = added
  end
  if expires == kept_until then
    redis.call('SET', key, concat(PARTS, '', 1, NPARTS), 'KEEPTTL')
  else
    redis.call('SET', key, concat(PARTS, '', 1, NPARTS), 'PX', expires - t + SKEW)
  end
end
-- The library functions, bound to their upvalues at the first call.
local function bind_libraries()
  floor, ceil, max, min = math.floor, math.ceil, math.max, math.min
  spack, sunpack, sub, mpack, munpack_limit = struct.pack, struct.unpack, string.sub, cmsgpack.pack, cmsgpack.unpack_limit
  concat, unpack_all, HUGE = table.concat, unpack, math.huge
end
-- Reads the identity's value (\`raw\`: nil for none) into the state's numbers (\`s\`, its time
-- \`at0\`), the expiry it was written with (\`kept_until\`), and where its tickets start (the
-- answer; nil while none is held). A function of its own, as bind_libraries is: \`run\` may
-- name at most 60 upvalues (Lua 5.1).
local function read_value(key, clocked)
  CHARGED[1], CHARGED[2], CHARGED[3], CHARGED[4] = false, false, false, false
  raw = redis.call('GET', key)
  -- The state's 18 numbers, then (from \`rest\`) the logs held apart and the tickets.
  local rest = 0
  if raw then
    s = header(munpack_limit(raw, 18))
    rest = offset
  else
    s = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }
  end
  at0 = s[1]
  local tickets_at
  if raw and rest > 0 then
    tickets_at = locate(rest + 1)
    if tickets_at > #raw then tickets_at = nil end
  end
  kept_until = -1
  if raw and clocked == 0 then kept_until = written_expiry() end
  return tickets_at
end
${
  // A library's code runs per event inside \`one\`; a script's at its top level, as it always did
  // (a closure over every upvalue above, built on every EVAL, would cost the script more).
  asLibrary ? 'local function one(key, arg)\n' : ''
}if not floor then bind_libraries() end
${asLibrary ? '' : 'local key = KEYS[1]\nlocal arg = ARGV[1]\n'}local op, resource, content, graphql, counts, clocked, timed, clock, limit, cost, deadline, status, cpu_ms, id, counted_reset
local length = #arg
if length == ${argsLength(ARGS_FORMATS.admit)} then
  op, resource, content, graphql, counts, clocked, timed, clock, limit, cost, deadline = sunpack('${ARGS_FORMATS.admit}', arg)
elseif length == ${argsLength(ARGS_FORMATS.settle)} then
  op, resource, content, graphql, counts, clocked, timed, clock, status, cpu_ms, id, counted_reset = sunpack('${ARGS_FORMATS.settle}', arg)
elseif length == ${argsLength(ARGS_FORMATS.atOnce)} then
  op, resource, content, graphql, counts, clocked, timed, clock, limit, cost, deadline, status, cpu_ms = sunpack('${ARGS_FORMATS.atOnce}', arg)
else
  op, resource, content, graphql, counts, clocked, timed, clock = sunpack('${ARGS_FORMATS.reset}', arg)
end
content, graphql, counts = content == 1, graphql == 1, counts == 1
local now
if clocked == 1 then now = clock else now = server_clock() end
local tickets_at = read_value(key, clocked)
-- The event's time (effective-time.ts): the clock's reading in whole ms, or the state's time where
-- the clock reads no time, or a time at most SKEW before the state's (a clock a little behind
-- another instance's). \`reading\` is the clock's own, for a denial's answer.
local t, reading = s[1], s[1]
if now >= 0 and now ~= HUGE then
  reading = floor(now)
  if reading >= t or t - reading > SKEW then t = reading end
  if reading > t then reading = t end
end
local ws = 8 + (resource - 1) * 2 + 1 -- Lua index of the resource's reset; its used follows
local w = WINDOWS[resource]
-- Reset (\`limiter.reset\`): nothing spent, no ticket held, no log kept. The ticket counter stays,
-- for the lease of the tickets handed out before, so none of their ids is handed out again.
if op == RESET then
  local counter = s[17]
  for i = 1, 18 do s[i] = 0 end
  s[1] = t
  s[17] = counter
  redis.call('SET', key, pack_state(), 'PX', LEASE_MS + SKEW)
  return spack('<d', 1)
end
${admitLua(uses)}
${settleLua(uses)}${asLibrary ? `end\n${LIBRARY_ENTRIES}` : ''}`;
  // A log's span or quantum at a fixed index, written as its number (one table read less each).
  const { spans, quanta } = logPlan(config);
  return code
    .replace(/LOG_SPANS\[(\d)\]/g, (_, i: string) => String(spans[Number(i) - 1]))
    .replace(/LOG_QUANTA\[(\d)\]/g, (_, i: string) => String(quanta[Number(i) - 1]));
}

/**
 * The limits code as an `EVAL` script (Redis 6, or where functions are refused): the whole code
 * runs on every call. The shebang makes Redis 7 (and Valkey) refuse it with OOM once `maxmemory`
 * is reached (no `allow-oom` flag): a full Redis is a store failure, never a partial write.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { limitsScript } from './redis-script.js';
 * limitsScript(defaultLimits()).includes('local LEASE_MS = 600000'); // true
 */
export function limitsScript(config: LimitsConfig): string {
  return `#!lua\n${limitsCode(config, false)}`;
}

/**
 * The limits code as a Redis 7 function library (`FUNCTION LOAD`): its functions are defined once,
 * at load, and each `FCALL name` runs only `run`. Registered without flags, so like the script it
 * may write and is refused with OOM once `maxmemory` is reached.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { limitsLibrary } from './redis-script.js';
 * limitsLibrary(defaultLimits(), 'tollgate_0a1b').startsWith('#!lua name=tollgate_0a1b'); // true
 */
export function limitsLibrary(config: LimitsConfig, name: string): string {
  return `#!lua name=${name}\n${limitsCode(config, true)}redis.register_function('${name}', run)\nredis.register_function('${batchFunction(name)}', run_batch)\n`;
}

/**
 * The name of the library's batch function (\`run_batch\`: many events, one call).
 * @example
 * import { batchFunction } from './redis-script.js';
 * batchFunction('tollgate_0a1b'); // 'tollgate_0a1b_batch'
 */
export const batchFunction = (name: string): string => `${name}_batch`;

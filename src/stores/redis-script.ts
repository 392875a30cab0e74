/** The limits transition as one Lua script: what `stepInto` and the memory store's ticket ledger do, inside Redis. */
import type { LimitsConfig } from '../limits/limits-config.js';
import { logsLua } from './redis-log-script.js';
import { LUA_FUNCTIONS } from './redis-script-functions.js';

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
 * The script for one config: its numbers are written into the code, so a config is one script,
 * loaded once and called by SHA. KEYS: the identity's state (with the last ticket id: ids only
 * grow, from the admission's time times 1,024, so none is handed out twice), its held tickets (a
 * sorted set of ticket ids scored by lease end) and its six sliding logs (LOG_RULES order; a key
 * only while its log is longer than one entry: see redis-log-script.ts), all hash-tagged by the
 * identity so a Cluster keeps them in one slot. ARGV[1] is `a` (admit), `x` (admit and settle at once), `c` (complete), `r` (release)
 * or `z` (reset); ARGV[2] the clock reading in ms, or empty for the server's own `TIME`; an
 * admission's ARGV[9] its deadline on the server's clock, or empty (`x`: ARGV[10] and ARGV[11]
 * the status and CPU ms it is settled with). Every number is an
 * integer below 2^53 and every operation the one `stepInto` does, in the same IEEE doubles, so
 * the answers are the memory store's (a differential test holds them to it).
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { limitsScript } from './redis-script.js';
 * limitsScript(defaultLimits()).includes('local LEASE_MS = 600000'); // true
 */
export function limitsScript(config: LimitsConfig): string {
  const { primary, secondary } = config;
  const windows = [
    primary.windowMs,
    primary.resources.search.windowMs,
    primary.resources.graphql.windowMs,
    primary.resources.lfs.windowMs,
  ];
  // The shebang makes Redis 7 (and Valkey) refuse the whole script with OOM once `maxmemory` is
  // reached (no `allow-oom` flag): a full Redis is a store failure, never a partial write.
  return `#!lua
-- tollgate limits (generated from a LimitsConfig; see src/stores/redis-script.ts)
local WINDOWS = { ${windows.join(', ')} }
local CONCURRENCY = ${secondary.concurrency.limit}
local LEASE_MS = ${secondary.concurrency.leaseMs}
local PW = ${secondary.points.windowMs}
local REST = ${secondary.points.rest}
local GQL = ${secondary.points.graphql}
local CW = ${secondary.cpu.windowMs}
local CPU = ${secondary.cpu.totalMs}
local GQL_CPU = ${secondary.cpu.graphqlMs}
local PER_MINUTE = ${secondary.content.perMinute}
local PER_HOUR = ${secondary.content.perHour}
local MINUTE = 60000
local HOUR = 3600000
local SKEW = 1000
local CONCURRENCY_RETRY_MS = 1000
local s
${logsLua(config)}
${LUA_FUNCTIONS}

local state_key, tickets_key = KEYS[1], KEYS[2]
local op = ARGV[1]
local now
if ARGV[2] == '' then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
else
  now = tonumber(ARGV[2])
end
local raw = redis.call('GET', state_key)
-- The 16 numbers of IdentityState, then the ticket counter.
if raw then s = { cmsgpack.unpack(raw) } else s = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 } end
if s[17] == nil then s[17] = 0 end
local t = effective(now, s[1])
local resource = tonumber(ARGV[3])
local ws = 8 + (resource - 1) * 2 + 1 -- Lua index of the resource's reset; its used follows
local w = WINDOWS[resource]

-- Every key of the identity expires when its last window ends, its last bucket is full and its
-- last lease has run out (a held ticket keeps \`inFlight\` above 0, so \`t + LEASE_MS\` counts): then
-- it is worth no more than no state at all.
local function save(logs)
  local expires = expires_at(s, logs)
  if expires <= t then
    redis.call('DEL', state_key, tickets_key, KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8])
    return
  end
  -- Relative to t, so an injected test clock and the server's own agree on how long keys live;
  -- t may run up to SKEW ahead of the server's clock, so a key never expires early.
  local ttl = expires - t + SKEW
  save_logs(logs, t, ttl)
  redis.call('SET', state_key, cmsgpack.pack(unpack(s)), 'PX', ttl)
  redis.call('PEXPIRE', tickets_key, ttl)
end
local function load_logs()
  local logs = {}
  for i = 1, 6 do logs[i] = load_log(i, s[1]) end
  return logs
end

-- Reset (\`limiter.reset\`): nothing spent, no ticket held, no log kept. The ticket counter stays,
-- for the lease of the tickets handed out before, so none of their ids is handed out again.
if op == 'z' then
  local counter = s[17]
  for i = 1, #s do s[i] = 0 end
  s[1] = t
  s[17] = counter
  redis.call('DEL', tickets_key, KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8])
  redis.call('SET', state_key, cmsgpack.pack(unpack(s)), 'PX', LEASE_MS + SKEW)
  return { 1 }
end
-- An admission the caller stopped waiting for (ARGV[9], a time of the server's clock) charges
-- nothing: it was answered by the failure mode already (the store's \`timeoutMs\`).
if (op == 'a' or op == 'x') and ARGV[9] ~= '' then
  local time = redis.call('TIME')
  if tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) > tonumber(ARGV[9]) then return { 2 } end
end
-- \`x\`: admitted and settled at once (a request answered without a slot: a policy refusal that
-- counts): the same transition as \`a\` then \`c\` at the same instant, in one call.
if op == 'a' or op == 'x' then
  local limit, cost = tonumber(ARGV[4]), tonumber(ARGV[5])
  local content, graphql, counts = ARGV[6] == '1', ARGV[7] == '1', ARGV[8] == '1'
  local reading = t
  if now >= 0 and now ~= math.huge then reading = math.min(math.floor(now), t) end
  local lease_end = t + LEASE_MS
  -- The tickets held with a lease still running are the requests in flight.
  redis.call('ZREMRANGEBYSCORE', tickets_key, '-inf', t)
  if raw then s[2] = redis.call('ZCARD', tickets_key) end
  local logs = load_logs()
  for i = 1, 6 do if LOG_USES[i] then drop_left(logs[i], t, LOG_SPANS[i]) end end
  local elapsed = t - s[1]
  local reset = current_reset(s[ws], t, w)
  local used = window_used(s[ws], s[ws + 1], t, w)
  local primary_denied = counts and used >= limit
  local rule = 0
  local retry_at = t
  local in_flight = s[2]
  if in_flight >= CONCURRENCY then rule = 2; retry_at = t + CONCURRENCY_RETRY_MS end
  local rest = refill(s[3], REST, elapsed)
  local gql = refill(s[4], GQL, elapsed)
  local p, points, cap, points_rule = 1, rest, REST, 3
  if graphql then p, points, cap, points_rule = 2, gql, GQL, 4 end
  local wait
  if LOG_USES[p] then wait = log_wait(logs[p], t, LOG_SPANS[p], cost, cap) else wait = bucket_wait(points, cost, cap, PW) end
  if wait > 0 then
    if rule == 0 then rule = points_rule end
    retry_at = math.max(retry_at, t + wait)
  end
  wait = log_wait(logs[3], t, LOG_SPANS[3], 1, CPU)
  if wait > 0 then
    if rule == 0 then rule = 5 end
    retry_at = math.max(retry_at, t + wait)
  end
  if graphql then
    wait = log_wait(logs[4], t, LOG_SPANS[4], 1, GQL_CPU)
    if wait > 0 then
      if rule == 0 then rule = 6 end
      retry_at = math.max(retry_at, t + wait)
    end
  end
  local minute = refill(s[7], PER_MINUTE, elapsed)
  local hour = refill(s[8], PER_HOUR, elapsed)
  if content then
    if LOG_USES[5] then wait = log_wait(logs[5], t, MINUTE, 1, PER_MINUTE) else wait = bucket_wait(minute, 1, PER_MINUTE, MINUTE) end
    if wait > 0 then
      if rule == 0 then rule = 7 end
      retry_at = math.max(retry_at, t + wait)
    end
    if LOG_USES[6] then wait = log_wait(logs[6], t, HOUR, 1, PER_HOUR) else wait = bucket_wait(hour, 1, PER_HOUR, HOUR) end
    if wait > 0 then
      if rule == 0 then rule = 8 end
      retry_at = math.max(retry_at, t + wait)
    end
  end
  -- A denied request changes no state (all or nothing). A primary refusal also waits for any
  -- secondary rule that is full too.
  if primary_denied or rule ~= 0 then keep_dropped(logs) end
  if primary_denied then
    local freed = reset
    if rule ~= 0 then freed = math.max(reset, retry_at) end
    return { 0, 1, used, reset, freed, reading }
  end
  if rule ~= 0 then return { 0, rule, used, reset, retry_at, reading } end
  local new_used = used
  if counts then new_used = used + 1 end
  s[1] = t
  s[2] = in_flight + 1
  if op == 'x' then s[2] = in_flight end
  settle_logs(logs, t)
  if LOG_USES[p] then charge_log(logs[p], t, cost, 1) end
  s[3] = rest
  s[4] = gql
  if graphql then s[4] = gql + cost * PW else s[3] = rest + cost * PW end
  s[5] = 0
  s[6] = 0
  s[7] = minute
  s[8] = hour
  if content then
    s[7] = minute + MINUTE
    s[8] = hour + HOUR
    if LOG_USES[5] then charge_log(logs[5], t, 1, 1) end
    if LOG_USES[6] then charge_log(logs[6], t, 1, 1) end
  end
  local counted_reset = 0
  if counts then s[ws] = reset; s[ws + 1] = new_used; counted_reset = reset end
  if op == 'x' then
    -- The completion's 304 refund (seed 000, "Polling rules"); the answer still shows the admission.
    if counts and tonumber(ARGV[10]) == 304 then s[ws + 1] = used end
    local charge = 0
    if tonumber(ARGV[11]) > 0 then charge = math.ceil(tonumber(ARGV[11])) end
    charge_log(logs[3], t, math.min(charge, CPU), LOG_QUANTA[3])
    if graphql then charge_log(logs[4], t, math.min(charge, GQL_CPU), LOG_QUANTA[4]) end
    save(logs)
    return { 1, new_used, reset, counted_reset, 0 }
  end
  -- A ticket id is never handed out twice for an identity: the time, and a counter within it.
  -- Ids only grow while the identity has state (and start from the time after it expired).
  local id = math.max(s[17] + 1, t * 1024)
  s[17] = id
  redis.call('ZADD', tickets_key, lease_end, string.format('%.0f', id))
  -- A rule counted in a log gets its number of the state from save_logs.
  save(logs)
  return { 1, new_used, reset, counted_reset, id }
end

-- Complete or release: only a ticket this store holds, with its lease running, settles anything.
local graphql = ARGV[4] == '1'
local status, cpu_ms = tonumber(ARGV[5]), tonumber(ARGV[6])
local id, counted_reset = ARGV[7], tonumber(ARGV[8])
local lease_end = redis.call('ZSCORE', tickets_key, id)
if lease_end then redis.call('ZREM', tickets_key, id) end
if not raw or not lease_end or tonumber(lease_end) <= t then
  return { 0, window_used(s[ws], s[ws + 1], t, w), current_reset(s[ws], t, w) }
end
local logs = load_logs()
local elapsed = t - s[1]
local stored_reset, stored_used = s[ws], s[ws + 1]
local used = stored_used
if op == 'c' and status == 304 and counted_reset ~= 0 and counted_reset == stored_reset and stored_used > 0 then
  used = stored_used - 1
end
local in_flight = 0
if s[2] > 0 then in_flight = s[2] - 1 end
local charge = 0
if cpu_ms > 0 then charge = math.ceil(cpu_ms) end
s[3] = refill(s[3], REST, elapsed)
s[4] = refill(s[4], GQL, elapsed)
s[5] = 0
s[6] = 0
s[7] = refill(s[7], PER_MINUTE, elapsed)
s[8] = refill(s[8], PER_HOUR, elapsed)
s[1] = t
s[2] = in_flight
s[ws + 1] = used
settle_logs(logs, t)
charge_log(logs[3], t, math.min(charge, CPU), LOG_QUANTA[3])
if graphql then charge_log(logs[4], t, math.min(charge, GQL_CPU), LOG_QUANTA[4]) end
save(logs)
return { 1, window_used(stored_reset, used, t, w), current_reset(stored_reset, t, w) }
`;
}

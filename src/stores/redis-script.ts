/** The limits transition as one Lua script: what `stepInto` and the memory store's ticket ledger do, inside Redis. */
import type { LimitsConfig } from '../limits/index.js';
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
 * grow, from the admission's time times 1,024, so none is handed out twice) and its held
 * tickets (a sorted set of ticket ids scored by lease end), both hash-tagged by the identity so a
 * Cluster keeps them in one slot. ARGV[1] is `a` (admit), `c` (complete), `r` (release) or `z` (reset);
 * ARGV[2] the clock reading in ms, or empty for the server's own `TIME`; an admission's ARGV[9] its
 * deadline on the server's clock, or empty. Every number is an
 * integer below 2^53 and every operation the one `stepInto` does, in the same IEEE doubles, so
 * the answers are the memory store's (a differential test holds them to it).
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { limitsScript } from './redis-script.js';
 * limitsScript(defaultLimits()).includes('local LEASE_MS = 600000'); // true
 */
export function limitsScript(config: LimitsConfig): string {
  const { primary, secondary } = config;
  const modes = secondary.windowModes;
  const strict = Object.values(modes).includes('strict');
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
-- Window modes (see strict-window.ts): six sub-windows and a ring of seven counters per rule,
-- after the state's 16 numbers and the ticket counter: rest, GraphQL points, content minute, hour.
local STRICT = ${strict}
local STRICT_REST, STRICT_GQL = ${modes.rest_points === 'strict'}, ${modes.graphql_points === 'strict'}
local STRICT_MINUTE, STRICT_HOUR = ${modes.content_per_minute === 'strict'}, ${modes.content_per_hour === 'strict'}
local K, RING = 6, 7
local SB = { 18, 26, 34, 42 }

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
if STRICT then for i = 18, 49 do if s[i] == nil then s[i] = 0 end end end
local t = effective(now, s[1])
local resource = tonumber(ARGV[3])
local ws = 8 + (resource - 1) * 2 + 1 -- Lua index of the resource's reset; its used follows
local w = WINDOWS[resource]

-- Every key of the identity expires when its last window ends, its last bucket is full and its
-- last lease has run out (a held ticket keeps \`inFlight\` above 0, so \`t + LEASE_MS\` counts): then
-- it is worth no more than no state at all.
local function save()
  local expires = expires_at(s)
  if expires <= t then
    redis.call('DEL', state_key, tickets_key)
    return
  end
  -- Relative to t, so an injected test clock and the server's own agree on how long keys live;
  -- t may run up to SKEW ahead of the server's clock, so a key never expires early.
  local ttl = expires - t + SKEW
  redis.call('SET', state_key, cmsgpack.pack(unpack(s)), 'PX', ttl)
  redis.call('PEXPIRE', tickets_key, ttl)
end

-- Reset (\`limiter.reset\`): nothing spent, no ticket held. The ticket counter stays, for the lease
-- of the tickets handed out before, so none of their ids is handed out again.
if op == 'z' then
  local counter = s[17]
  for i = 1, #s do s[i] = 0 end
  s[1] = t
  s[17] = counter
  redis.call('DEL', tickets_key)
  redis.call('SET', state_key, cmsgpack.pack(unpack(s)), 'PX', LEASE_MS + SKEW)
  return { 1 }
end
-- An admission the caller stopped waiting for (ARGV[9], a time of the server's clock) charges
-- nothing: it was answered by the failure mode already (the store's \`timeoutMs\`).
if op == 'a' and ARGV[9] ~= '' then
  local time = redis.call('TIME')
  if tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) > tonumber(ARGV[9]) then return { 2 } end
end
if op == 'a' then
  local limit, cost = tonumber(ARGV[4]), tonumber(ARGV[5])
  local content, graphql, counts = ARGV[6] == '1', ARGV[7] == '1', ARGV[8] == '1'
  local reading = t
  if now >= 0 and now ~= math.huge then reading = math.min(math.floor(now), t) end
  local lease_end = t + LEASE_MS
  -- The tickets held with a lease still running are the requests in flight.
  redis.call('ZREMRANGEBYSCORE', tickets_key, '-inf', t)
  if raw then s[2] = redis.call('ZCARD', tickets_key) end
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
  local points, cap, points_rule, points_strict, points_base = rest, REST, 3, STRICT_REST, SB[1]
  if graphql then points, cap, points_rule, points_strict, points_base = gql, GQL, 4, STRICT_GQL, SB[2] end
  local wait
  if points_strict then wait = strict_wait(points_base, t, PW, cost, cap) else wait = bucket_wait(points, cost, cap, PW) end
  if wait > 0 then
    if rule == 0 then rule = points_rule end
    retry_at = math.max(retry_at, t + wait)
  end
  local cpu = refill(s[5], CPU, elapsed)
  local gql_cpu = refill(s[6], GQL_CPU, elapsed)
  wait = debt_wait(cpu, CPU, CW)
  if wait > 0 then
    if rule == 0 then rule = 5 end
    retry_at = math.max(retry_at, t + wait)
  end
  if graphql then
    wait = debt_wait(gql_cpu, GQL_CPU, CW)
    if wait > 0 then
      if rule == 0 then rule = 6 end
      retry_at = math.max(retry_at, t + wait)
    end
  end
  local minute = refill(s[7], PER_MINUTE, elapsed)
  local hour = refill(s[8], PER_HOUR, elapsed)
  if content then
    if STRICT_MINUTE then wait = strict_wait(SB[3], t, MINUTE, 1, PER_MINUTE) else wait = bucket_wait(minute, 1, PER_MINUTE, MINUTE) end
    if wait > 0 then
      if rule == 0 then rule = 7 end
      retry_at = math.max(retry_at, t + wait)
    end
    if STRICT_HOUR then wait = strict_wait(SB[4], t, HOUR, 1, PER_HOUR) else wait = bucket_wait(hour, 1, PER_HOUR, HOUR) end
    if wait > 0 then
      if rule == 0 then rule = 8 end
      retry_at = math.max(retry_at, t + wait)
    end
  end
  -- A denied request changes no state (all or nothing). A primary refusal also waits for any
  -- secondary rule that is full too.
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
  -- A strict rule counts in its sub-windows; its bucket number stays as it was.
  if points_strict then strict_charge(points_base, t, PW, cost) end
  s[3] = rest
  s[4] = gql
  if not points_strict then
    if graphql then s[4] = gql + cost * PW else s[3] = rest + cost * PW end
  end
  s[5] = cpu
  s[6] = gql_cpu
  s[7] = minute
  s[8] = hour
  if content then
    if STRICT_MINUTE then strict_charge(SB[3], t, MINUTE, 1) else s[7] = minute + MINUTE end
    if STRICT_HOUR then strict_charge(SB[4], t, HOUR, 1) else s[8] = hour + HOUR end
  end
  local counted_reset = 0
  if counts then s[ws] = reset; s[ws + 1] = new_used; counted_reset = reset end
  -- A ticket id is never handed out twice for an identity: the time, and a counter within it.
  -- Ids only grow while the identity has state (and start from the time after it expired).
  local id = math.max(s[17] + 1, t * 1024)
  s[17] = id
  redis.call('ZADD', tickets_key, lease_end, string.format('%.0f', id))
  save()
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
s[5] = math.min(refill(s[5], CPU, elapsed) + math.min(charge, CPU) * CW, 2 * CPU * CW)
local gql_charge = 0
if graphql then gql_charge = math.min(charge, GQL_CPU) * CW end
s[6] = math.min(refill(s[6], GQL_CPU, elapsed) + gql_charge, 2 * GQL_CPU * CW)
s[7] = refill(s[7], PER_MINUTE, elapsed)
s[8] = refill(s[8], PER_HOUR, elapsed)
s[1] = t
s[2] = in_flight
s[ws + 1] = used
save()
return { 1, window_used(stored_reset, used, t, w), current_reset(stored_reset, t, w) }
`;
}

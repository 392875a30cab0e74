/** The Lua functions of the limits script: the arithmetic of `stepInto` (buckets, windows, expiry). */

/**
 * Placed after the script's constants (WINDOWS, REST, GQL, ...) and the sliding logs' functions
 * (redis-log-script.ts: `LOG_USES`, `logs_expire`), which they read. Each mirrors the TypeScript
 * function of the same job in src/limits (effective-time, fixed-window, token-bucket,
 * state-expiry), in the same IEEE doubles.
 * @example
 * import { LUA_FUNCTIONS } from './redis-script-functions.js';
 * LUA_FUNCTIONS.includes('local function refill'); // true
 */
export const LUA_FUNCTIONS = `local function effective(now, at)
  if not (now >= 0) or now == math.huge then return at end
  local reading = floor(now)
  if reading >= at or at - reading <= SKEW then return max(reading, at) end
  return reading
end
local function window_end(t, w) return ceil((t + w) / 1000) * 1000 end
local function is_open(reset, t, w) return reset > t and reset <= window_end(t, w) end
local function window_used(reset, used, t, w) if is_open(reset, t, w) then return used end return 0 end
local function current_reset(reset, t, w) if is_open(reset, t, w) then return reset end return window_end(t, w) end
local function refill(spent, cap, elapsed)
  if elapsed <= 0 then return spent end
  local r = cap * elapsed
  if r >= spent then return 0 end
  return spent - r
end
local function bucket_wait(spent, cost, cap, w)
  local excess = spent + cost * w - cap * w
  if excess <= 0 then return 0 end
  return ceil(excess / cap)
end
local function refilled_at(at, spent, cap) if spent > 0 then return at + ceil(spent / cap) end return 0 end
local function expires_at(s, logs)
  local latest = max(s[9], s[11], s[13], s[15], logs_expire(logs))
  if not LOG_USES[1] then latest = max(latest, refilled_at(s[1], s[3], REST)) end
  if not LOG_USES[2] then latest = max(latest, refilled_at(s[1], s[4], GQL)) end
  if not LOG_USES[5] then latest = max(latest, refilled_at(s[1], s[7], PER_MINUTE)) end
  if not LOG_USES[6] then latest = max(latest, refilled_at(s[1], s[8], PER_HOUR)) end
  if s[2] > 0 then latest = max(latest, s[1] + LEASE_MS) end
  return latest
end`;

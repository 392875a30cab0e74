/** The Lua functions of the limits script: the arithmetic of `stepInto` (buckets, windows, strict counters, expiry). */

/**
 * Placed after the script's constants (WINDOWS, REST, GQL, ...), which they read. Each mirrors the
 * TypeScript function of the same job in src/limits (effective-time, fixed-window, token-bucket,
 * strict-window, state-expiry), in the same IEEE doubles.
 * @example
 * import { LUA_FUNCTIONS } from './redis-script-functions.js';
 * LUA_FUNCTIONS.includes('local function refill'); // true
 */
export const LUA_FUNCTIONS = `local function effective(now, at)
  if not (now >= 0) or now == math.huge then return at end
  local reading = math.floor(now)
  if reading >= at or at - reading <= SKEW then return math.max(reading, at) end
  return reading
end
local function window_end(t, w) return math.ceil((t + w) / 1000) * 1000 end
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
  return math.ceil(excess / cap)
end
local function debt_wait(spent, cap, w)
  local excess = spent - cap * w
  if excess < 0 then return 0 end
  return math.floor(excess / cap) + 1
end
local function sub_ms(w) return math.ceil(w / K) end
local function oldest(current, newest) return math.max(0, current - K, newest - K) end
local s
local function strict_count(b, t, w)
  local newest = s[b]
  local current = math.max(math.floor(t / sub_ms(w)), newest)
  local count = 0
  for n = oldest(current, newest), newest do count = count + s[b + 1 + (n % RING)] end
  return count
end
local function strict_wait(b, t, w, cost, cap)
  local sub = sub_ms(w)
  local newest = s[b]
  local current = math.max(math.floor(t / sub), newest)
  local count = strict_count(b, t, w)
  if count + cost <= cap then return 0 end
  for n = oldest(current, newest), newest do
    count = count - s[b + 1 + (n % RING)]
    if count + cost <= cap then return math.max(1, (n + RING) * sub - t) end
  end
  return math.max(1, (newest + RING) * sub - t)
end
local function strict_charge(b, t, w, cost)
  local newest = s[b]
  local current = math.max(math.floor(t / sub_ms(w)), newest)
  if current > newest then
    for n = math.max(newest + 1, current - K), current do s[b + 1 + (n % RING)] = 0 end
    s[b] = current
  end
  s[b + 1 + (current % RING)] = s[b + 1 + (current % RING)] + cost
end
local function strict_expires(b, w)
  for i = 1, RING do
    if s[b + i] > 0 then return (s[b] + RING) * sub_ms(w) end
  end
  return 0
end
local function refilled_at(at, spent, cap) if spent > 0 then return at + math.ceil(spent / cap) end return 0 end
local function expires_at(s)
  local latest = math.max(s[9], s[11], s[13], s[15],
    refilled_at(s[1], s[3], REST), refilled_at(s[1], s[4], GQL), refilled_at(s[1], s[5], CPU),
    refilled_at(s[1], s[6], GQL_CPU), refilled_at(s[1], s[7], PER_MINUTE), refilled_at(s[1], s[8], PER_HOUR))
  if s[2] > 0 then latest = math.max(latest, s[1] + LEASE_MS) end
  if STRICT then
    latest = math.max(latest, strict_expires(SB[1], PW), strict_expires(SB[2], PW),
      strict_expires(SB[3], MINUTE), strict_expires(SB[4], HOUR))
  end
  return latest
end`;

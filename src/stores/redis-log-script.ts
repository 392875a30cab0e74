/** The sliding logs inside the Redis script: what sliding-log.ts and log-slot.ts do, in Lua over the bytes of the identity's value. */
import type { LimitsConfig } from '../limits/limits-config.js';
import { logPlan } from '../limits/log-rules.js';
import { logsApartLua } from './redis-log-apart-script.js';
import { loadLogsLua } from './redis-log-load-script.js';
import { logsSaveLua } from './redis-log-save-script.js';

/**
 * The Lua half of the script that keeps the six sliding logs of an identity. A log of at most one
 * entry is packed into its rule's number of the state (0, or age x 2^24 + weight: log-slot.ts);
 * a longer one of n entries (the number is -n) is kept in the identity's value after the state:
 * the sum of its weights as a big-endian double, then one 16-byte entry (time, weight as two
 * doubles) per ms, oldest first (redis-script.ts). An event reads the entries it needs (the oldest
 * ones that left, the newest) with `struct.unpack` where they lie in the value, and copies the log
 * once when it changes (its left entries cut off, the newest appended or merged): work per event
 * is a few entries and one copy of the log, whatever its length. Functions are the ones of
 * sliding-log.ts, step for step, so the answers are the memory store's.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { logsLua } from './redis-log-script.js';
 * logsLua(defaultLimits()).includes('local LOG_SPANS = { 60000, 60000, 61000, 61000, 60000, 3600000 }'); // true
 */
export function logsLua(config: LimitsConfig): string {
  const plan = logPlan(config);
  return `local LOG_USES = { ${plan.uses.join(', ')} }
local LOG_SPANS = { ${plan.spans.join(', ')} }
local LOG_QUANTA = { ${plan.quanta.join(', ')} }
local LOG_CAPS = { ${plan.capacities.join(', ')} }
local SLOT_SPAN = 16777216
local SLOT_MAX_AGE = 536870912
-- A log, as an array (Redis's Lua reads an array slot for less than a named field, and builds the
-- array in one step): [1] the string holding its entries and [2] where they start in it (the
-- value as read), [3] first and [4] last entry index (1-based), [5] sum, [6] whether the value
-- holds it apart. Its newest entry may be held in Lua instead ([7] tail: [8] time, [9] weight, at
-- index [4]): a log packed in its number, or one the event charged, is never packed into a string
-- only to be read back; [10] index, [11] time, [12] weight cache the entry read last from the
-- string (the oldest, read by every rule); [13] entries left its front; [14] its number as read
-- while nothing was written to it (held apart: saved by copying its bytes as read), else false.
-- Strings and reads of them are what the script pays most for.
local function entry(L, i)
  if L[7] and i == L[4] then return L[8], L[9] end
  if i == L[10] then return L[11], L[12] end
  local time, w = sunpack('>dd', L[1], L[2] + (i - 1) * 16)
  L[10], L[11], L[12] = i, time, w
  return time, w
end
-- The logs this event loaded (LOADED[1..NL]) and the ones left packed in a number above 0
-- (PACKED[1..NP]): loops visit these, not all six (a log neither loaded nor packed is empty and
-- stays so). Filled by load_logs.
local LOADED, PACKED, NL, NP = {}, {}, 0, 0
-- Where each log held apart starts in the value (LOG_AT[i]), and where the tickets start: the
-- logs' sizes are in the state (\`-n\`: n entries, after an 8-byte sum).
local LOG_AT = {}
-- A log held apart that the event neither reads nor charges (\`true\` among the loaded logs, its
-- number \`slot\` as read) is carried as read: its bytes copied whole, entries that left included
-- (the next event that reads it drops them, as the memory store opens only the logs it reads).
local function raw_log(i, slot) return sub(raw, LOG_AT[i], LOG_AT[i] + 7 - slot * 16) end
-- Its newest entry's time.
local function raw_newest(i, slot) return (sunpack('>d', raw, LOG_AT[i] + 8 - (slot + 1) * 16)) end
${logsApartLua()}
local function locate(from)
${plan.kept.map((k) => `  if s[${3 + k}] < 0 then LOG_AT[${k + 1}] = from; from = from - s[${3 + k}] * 16 + 8 end`).join('\n')}
  return from
end
local function load_log(i, at)
  local L = { '', 1, 1, 0, 0, false, false, 0, 0, 0, 0, 0, false, false }
  local slot = s[2 + i]
  if slot < 0 then
    local from = LOG_AT[i]
    L[5], L[11], L[12] = sunpack('>ddd', raw, from)
    L[10] = 1
    L[1] = raw
    L[2] = from + 8
    L[4] = -slot
    L[14] = slot
    L[6] = true
  elseif slot > 0 then
    local w = slot % SLOT_SPAN
    L[7], L[8], L[9] = true, at - (slot - w) / SLOT_SPAN, w
    L[4] = 1
    L[5] = w
  end
  return L
end
local function live_sum(L, t, span)
  local edge = t - span
  local sum = L[5]
  for i = L[3], L[4] do
    local time, w = entry(L, i)
    if time > edge then break end
    sum = sum - w
  end
  return sum
end
local function log_wait(L, t, span, need, cap)
  local edge = t - span
  local sum = live_sum(L, t, span)
  if sum + need <= cap then return 0 end
  for i = L[3], L[4] do
    local time, w = entry(L, i)
    if time > edge then
      sum = sum - w
      if sum + need <= cap then return max(1, time + span - t) end
    end
  end
  if L[4] >= L[3] then
    local newest = entry(L, L[4])
    if newest > edge then return max(1, newest + span - t) end
  end
  return span
end
-- Replaces the newest entry (index last) or appends one, as the tail. A tail appended to is
-- written into the string first (as many events as the clock went back: rare).
local function put_last(L, time, w, replace)
  L[14] = false
  if not replace then
    if L[7] then
      L[1] = sub(L[1], L[2], L[2] + (L[4] - 1) * 16 - 1) .. spack('>dd', L[8], L[9])
      L[2], L[10] = 1, 0
    end
    L[4] = L[4] + 1
  end
  L[7], L[8], L[9] = true, time, w
end
-- Entries that left count for nothing: dropped before reading, refused or not (see dropLeft).
local function drop_left(L, t, span)
  local edge = t - span
  while L[3] <= L[4] do
    local time, w = entry(L, L[3])
    if time > edge then break end
    L[5] = L[5] - w
    L[3] = L[3] + 1
    L[13] = true
  end
end
local function settle_log(L, t, span)
  drop_left(L, t, span)
  if L[3] > L[4] then
    L[1], L[2], L[3], L[4], L[5], L[7], L[10], L[14] = '', 1, 1, 0, 0, false, 0, false
    return
  end
  if entry(L, L[4]) <= t then return end
  local moved = 0
  while L[4] >= L[3] do
    local time, w = entry(L, L[4])
    if time <= t then break end
    moved = moved + w
    L[4] = L[4] - 1
    -- The tail, if any, was the entry just moved.
    L[7] = false
  end
  if L[4] >= L[3] then
    local time, w = entry(L, L[4])
    if time == t then put_last(L, t, w + moved, true) return end
  end
  put_last(L, t, moved, false)
end
local function charge_log(L, t, w, quantum)
  if not (w > 0) then return end
  local stamp = t
  if quantum ~= 1 then stamp = t - (t % quantum) end
  L[5] = L[5] + w
  if L[4] >= L[3] then
    -- The newest entry (entry(L, L[4]), the tail read directly): merged into when not older.
    local time, last_w
    if L[7] then time, last_w = L[8], L[9] else time, last_w = entry(L, L[4]) end
    if time >= stamp then
      L[14] = false
      L[7], L[8], L[9] = true, time, last_w + w
      return
    end
  end
  put_last(L, stamp, w, false)
end
local function settle_logs(logs, t)
  for j = 1, NL do
    local i = LOADED[j]
    if logs[i] ~= true then settle_log(logs[i], t, LOG_SPANS[i]) end
  end
end
local function drop_logs(logs, t)
  for j = 1, NL do
    local i = LOADED[j]
    if logs[i] ~= true then drop_left(logs[i], t, LOG_SPANS[i]) end
  end
end
-- A log the event neither reads nor charges, packed in its number of the state (or empty), is not
-- loaded (its entry is never in the future: see load_logs): its number is moved to the new time
-- at save, as loading, settling and saving it would (\`logs[6 + i]\` keeps that number as read: the
-- event reuses the state's numbers of rules counted in logs). Its entry's time, from the old time.
local function packed_time(slot) return at0 - (slot - slot % SLOT_SPAN) / SLOT_SPAN end
${loadLogsLua(plan.kept)}
-- log_wait of a log the event may have left unloaded (see load_logs): one it carries as read has
-- room for \`need\` (0); one packed in its number holds one entry; else it is empty. The same
-- answers as log_wait gives, loaded, written out for one entry and for none.
local function read_wait(logs, i, t, span, need, cap)
  local L = logs[i]
  if L == true then return 0 end
  if L then
    -- Loaded, its left entries dropped (drop_logs): its sum is its live sum.
    if L[5] + need <= cap then return 0 end
    return log_wait(L, t, span, need, cap)
  end
  local slot = logs[6 + i]
  if slot > 0 then
    local time = packed_time(slot)
    if time > t - span then
      if slot % SLOT_SPAN + need <= cap then return 0 end
      return max(1, time + span - t)
    end
  end
  if need <= cap then return 0 end
  return span
end
${logsSaveLua()}
`;
}

/** How the Redis script writes an event's logs back into the identity's value (redis-log-script.ts): their numbers, their bytes, their expiry. */

/**
 * The Lua that writes the logs back: a log packed in its number is moved to the new time, a log
 * held apart is written as its pieces (sum, entries, newest) into PARTS, the value's pieces joined
 * once by save (redis-script.ts); \`kept_dropped\` does the same for a refusal's write-back, and
 * \`logs_expire\` gives the time the last entry of any log leaves. Placed last among the logs'
 * functions (redis-log-script.ts), after load_logs and charge_apart, whose logs it reads.
 * @example
 * import { logsSaveLua } from './redis-log-save-script.js';
 * logsSaveLua().includes('local function save_logs'); // true
 */
export function logsSaveLua(): string {
  return `-- The pieces of the value a save writes (PARTS[1..NPARTS]: the state, the logs held apart, the
-- tickets), joined once by table.concat: no piece is copied into a string of its own first.
local PARTS, NPARTS = {}, 0
-- The bytes of a log held apart, as the value keeps them, added to PARTS: its sum, then its live
-- entries (from the string, then the tail).
local function add_log_bytes(L)
  local last = L[4]
  if L[7] then last = last - 1 end
  NPARTS = NPARTS + 1
  PARTS[NPARTS] = spack('>d', L[5])
  if last >= L[3] then
    NPARTS = NPARTS + 1
    PARTS[NPARTS] = sub(L[1], L[2] + (L[3] - 1) * 16, L[2] + last * 16 - 1)
  end
  if L[7] then
    NPARTS = NPARTS + 1
    PARTS[NPARTS] = spack('>dd', L[8], L[9])
  end
end
-- After a refusal, whether a log held apart dropped entries: its state number (-n), and the bytes
-- of the logs held apart added to PARTS.
local function kept_dropped(logs)
  local any = false
  for j = 1, NL do
    local i = LOADED[j]
    local L = logs[i]
    if L == true then
      s[2 + i] = logs[6 + i]
      NPARTS = NPARTS + 1
      PARTS[NPARTS] = raw_log(i, logs[6 + i])
    elseif L[6] then
      local size = L[4] - L[3] + 1
      if L[13] then any = true end
      s[2 + i] = 0
      if size > 0 then
        add_log_bytes(L)
        s[2 + i] = -size
      end
    end
  end
  return any
end
local function logs_expire(logs)
  local latest = 0
  for j = 1, NL do
    local i = LOADED[j]
    local L = logs[i]
    if L == true then
      local newest
      if CHARGED[i] then newest = CHARGED_NEWEST[i] else newest = raw_newest(i, logs[6 + i]) end
      if newest + LOG_SPANS[i] > latest then latest = newest + LOG_SPANS[i] end
    elseif L[4] >= L[3] then
      local newest
      if L[7] then newest = L[8] else newest = entry(L, L[4]) end
      if newest + LOG_SPANS[i] > latest then latest = newest + LOG_SPANS[i] end
    end
  end
  for j = 1, NP do
    local i = PACKED[j]
    local ends = packed_time(logs[6 + i]) + LOG_SPANS[i]
    if ends > latest then latest = ends end
  end
  return latest
end
-- Writes each log back: into its number of the state when it packs, else into PARTS (the value's
-- bytes after the state), its number -n.
local function save_logs(logs, at)
  for j = 1, NP do
    local i = PACKED[j]
    local slot = logs[6 + i]
    s[2 + i] = 0
    local time = packed_time(slot)
    if time > at - LOG_SPANS[i] then s[2 + i] = (at - time) * SLOT_SPAN + slot % SLOT_SPAN end
  end
  -- In LOADED order: ascending, as the value keeps the logs held apart.
  for j = 1, NL do
    local i = LOADED[j]
    local L = logs[i]
    if CHARGED[i] then
      s[2 + i] = CHARGED_SLOT[i]
      PARTS[NPARTS + 1], PARTS[NPARTS + 2], PARTS[NPARTS + 3] = CHARGED[i], CHARGED_KEPT[i], CHARGED_LAST[i]
      NPARTS = NPARTS + 3
    elseif L == true then
      s[2 + i] = logs[6 + i]
      NPARTS = NPARTS + 1
      PARTS[NPARTS] = raw_log(i, logs[6 + i])
    elseif L[14] then
      -- Read, not written: its bytes as read (entries that left included, as above).
      s[2 + i] = L[14]
      NPARTS = NPARTS + 1
      PARTS[NPARTS] = raw_log(i, L[14])
    else
      local size = L[4] - L[3] + 1
      local slot = -size
      if size == 0 then slot = 0 end
      if size == 1 then
        local time, w = entry(L, L[3])
        local age = at - time
        if age >= 0 and age < SLOT_MAX_AGE and w < SLOT_SPAN then slot = age * SLOT_SPAN + w end
      end
      s[2 + i] = slot
      if slot < 0 then add_log_bytes(L) end
    end
  end
end`;
}

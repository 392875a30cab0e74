/** The sliding logs an event charges straight from the value, inside the Redis script (redis-log-script.ts): no table, two reads. */

/**
 * The Lua of the points log an admission charges and the CPU logs a completion charges, when
 * they are held apart and the clock did not go back: \`drop_apart\` drops the entries that left
 * and reads the newest, \`charge_apart\` writes the log's new bytes (CHARGED*) as load_log,
 * drop_left, charge_log and save_logs would have. Placed after LOG_AT and the value's readers
 * (redis-log-script.ts); save_logs and logs_expire (redis-log-save-script.ts) take its bytes.
 * @example
 * import { logsApartLua } from './redis-log-apart-script.js';
 * logsApartLua().includes('local function charge_apart'); // true
 */
export function logsApartLua(): string {
  return `-- A log an event charged straight from the value (drop_apart, then charge_apart: a points log, a
-- CPU log): its new bytes in three pieces (sum, entries kept, newest entry), state number and
-- newest entry's time; false for any other log (every call starts afresh).
local CHARGED, CHARGED_KEPT, CHARGED_LAST = { false, false, false, false, false, false }, {}, {}
local CHARGED_SLOT, CHARGED_NEWEST = {}, {}
-- Log i held apart, as drop_left leaves it when the clock did not go back (no entry lies after t):
-- the entries that left dropped (read from the value, oldest first). Its live part for
-- charge_apart: the sum of its live entries, the index of the first, the newest (time, weight).
-- False where load_log and its steps must run: every entry left, or charging at \`stamp\` would
-- leave one entry (it may pack into the state number).
local function drop_apart(i, t, stamp)
  local from = LOG_AT[i]
  local n = -s[2 + i]
  local sum, time, weight = sunpack('>ddd', raw, from)
  local edge = t - LOG_SPANS[i]
  local first = 1
  while time <= edge do
    sum = sum - weight
    if first == n then return false end
    first = first + 1
    time, weight = sunpack('>dd', raw, from + 8 + (first - 1) * 16)
  end
  if first < n then time, weight = sunpack('>dd', raw, from + 8 + (n - 1) * 16) end
  if first == n and time >= stamp then return false end
  return sum, first, time, weight
end
-- Then charges \`w\` at \`stamp\` (t, or the start of its quantum), as charge_log and save_logs
-- would: merged into the newest entry when that is not older, else added after it. The new bytes
-- are three pieces for PARTS: the sum, the entries kept (one substring of the value), the newest.
local function charge_apart(i, w, stamp, sum, first, time, weight)
  local from, n = LOG_AT[i], -s[2 + i]
  local last_at = from + 8 + (n - 1) * 16
  CHARGED[i] = spack('>d', sum + w)
  if time >= stamp then
    CHARGED_KEPT[i] = sub(raw, from + 8 + (first - 1) * 16, last_at - 1)
    CHARGED_LAST[i] = spack('>dd', time, weight + w)
    CHARGED_SLOT[i], CHARGED_NEWEST[i] = first - n - 1, time
  else
    CHARGED_KEPT[i] = sub(raw, from + 8 + (first - 1) * 16, last_at + 15)
    CHARGED_LAST[i] = spack('>dd', stamp, w)
    CHARGED_SLOT[i], CHARGED_NEWEST[i] = first - n - 2, stamp
  end
end`;
}

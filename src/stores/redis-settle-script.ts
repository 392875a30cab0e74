/** The completion half of the limits script (ops `c` and `r`): what `stepInto` and the memory store's ticket ledger do for a settled ticket, inside Redis. */

/**
 * Placed in the script after the admission half (redis-admit-script.ts), which ends the script
 * for an admission: the same values read (\`raw\`, \`s\`, \`t\`, the argument's fields, the window
 * \`ws\` and \`w\`, \`tickets_at\`) and functions. Finds the ticket in the value (only one held,
 * with its lease running, settles anything), frees its slot, refunds a 304's primary count,
 * charges the CPU logs (straight from the value where they are held apart: charge_apart), and
 * saves; answers \`held, used, reset\` as the completion leaves the window.
 * Written for the config's log plan (\`uses\`, LOG_RULES order): a bucket's refill only for a
 * rule the config counts in a bucket.
 * @example
 * import { settleLua } from './redis-settle-script.js';
 * settleLua([true, true, true, true, true, true]).includes('charge_apart(3'); // true
 */
export function settleLua(uses: readonly boolean[]): string {
  /** \`lua\` where log rule \`i\` (1-based) counts in a bucket (else it keeps a log: no refill). */
  const bucket = (i: number, lua: string) => (uses[i - 1] ? '' : `${lua}\n`);
  return `-- Complete or release: only a ticket this store holds, with its lease running, settles anything.
-- One whose lease ran out stays until an admission clears the leases that ended.
-- Found in the value itself: the tickets before it and after it are what is kept.
local found
if tickets_at then
  local needle = spack('>d', id)
  local from = tickets_at
  repeat
    found = string.find(raw, needle, from, true)
    -- Only where an entry starts: an id's bytes may also appear across two numbers.
    if found and (found - tickets_at) % 16 ~= 0 then from = found + 1 found = nil else break end
  until false
  if found and not (t < s[18] or sunpack('>d', raw, found + 8) > t) then found = nil end
end
-- The answer shows the window as the completion leaves it (fixed-window.ts: windowUsed and
-- currentReset, written out).
local reset = ceil((t + w) / 1000) * 1000
if not found then
  if s[ws] > t and s[ws] <= reset then return spack('<ddd', 0, s[ws + 1], s[ws]) end
  return spack('<ddd', 0, 0, reset)
end
local held, after = sub(raw, tickets_at, found - 1), sub(raw, found + 16)
local charge = 0
if cpu_ms > 0 then charge = ceil(cpu_ms) end
local cpu_charge, gql_cpu_charge = charge, charge
if cpu_charge > CPU then cpu_charge = CPU end
if gql_cpu_charge > GQL_CPU then gql_cpu_charge = GQL_CPU end
-- A CPU log held apart is charged straight from the value where it can be (charge_apart: 2).
local cpu_how, gql_cpu_how = 1, 1
if t >= at0 and cpu_charge > 0 then
  local stamp = t - (t % LOG_QUANTA[3])
  if s[5] < 0 then
    local live, first, newest, newest_w = drop_apart(3, t, stamp)
    if live then
      charge_apart(3, cpu_charge, stamp, live, first, newest, newest_w)
      cpu_how = 2
    end
  end
  stamp = t - (t % LOG_QUANTA[4])
  if graphql and s[6] < 0 then
    local live, first, newest, newest_w = drop_apart(4, t, stamp)
    if live then
      charge_apart(4, gql_cpu_charge, stamp, live, first, newest, newest_w)
      gql_cpu_how = 2
    end
  end
end
local logs = load_logs(t, 0, graphql, false, cpu_how, gql_cpu_how)
local elapsed = t - s[1]
local stored_reset, stored_used = s[ws], s[ws + 1]
local used = stored_used
if op == COMPLETE and status == 304 and counted_reset ~= 0 and counted_reset == stored_reset and stored_used > 0 then
  used = stored_used - 1
end
local in_flight = 0
if s[2] > 0 then in_flight = s[2] - 1 end
-- A rule counted in a log keeps its log's number here: no bucket to refill (save_logs writes it).
${bucket(1, 's[3] = refill(s[3], REST, elapsed)')}${bucket(2, 's[4] = refill(s[4], GQL, elapsed)')}s[5] = 0
s[6] = 0
${bucket(5, 's[7] = refill(s[7], PER_MINUTE, elapsed)')}${bucket(6, 's[8] = refill(s[8], PER_HOUR, elapsed)')}s[1] = t
s[2] = in_flight
if in_flight == 0 then s[18] = 0 end
s[ws + 1] = used
settle_logs(logs, t)
if cpu_how == 1 then charge_log(logs[3], t, cpu_charge, LOG_QUANTA[3]) end
if graphql and gql_cpu_how == 1 then charge_log(logs[4], t, gql_cpu_charge, LOG_QUANTA[4]) end
save(key, t, logs, held, after)
if stored_reset > t and stored_reset <= reset then return spack('<ddd', 1, used, stored_reset) end
return spack('<ddd', 1, 0, reset)
`;
}

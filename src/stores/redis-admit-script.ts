/** The admission half of the limits script (ops `a` and `x`): what `stepInto` decides for an admit event, inside Redis. */

/**
 * Placed in the script after the value is read (`raw`, `s`, `t`, `reading`, the argument's fields,
 * the window `ws` and `w`) and after its functions (`load_logs`, `tickets`, `save`, the buckets'
 * and logs' arithmetic): the deadline check, every rule of the request in `stepInto`'s order, and
 * on admission the charge, the ticket and the save. Ends the script for an admission; a
 * completion or release runs past it.
 * Written for the config's log plan (`uses`: which rules count in a sliding log, in LOG_RULES
 * order): a rule's bucket or log code is there only when the config counts it that way.
 * @example
 * import { admitLua } from './redis-admit-script.js';
 * admitLua([true, true, true, true, true, true]).includes("spack('>dd', id, lease_end)"); // true
 */
export function admitLua(uses: readonly boolean[]): string {
  /** \`lua\` where log rule \`i\` (1-based) counts in a log, \`otherwise\` where in a bucket. */
  const log = (i: number, lua: string, otherwise = '') => (uses[i - 1] ? lua : otherwise);
  return `-- An admission the caller stopped waiting for (a deadline on the server's clock) charges nothing:
-- it was answered by the failure mode already (the store's \`timeoutMs\`).
if (op == ADMIT or op == AT_ONCE) and timed == 1 then
  if server_clock() > deadline then return spack('<d', 2) end
end
-- \`x\`: admitted and settled at once (a request answered without a slot: a policy refusal that
-- counts): the same transition as \`a\` then \`c\` at the same instant, in one call.
if op == ADMIT or op == AT_ONCE then
  local lease_end = t + LEASE_MS
  -- The tickets held with a lease still running are the requests in flight. s[2] counts the
  -- tickets held, some maybe with their lease run out: 0, and there is none to count; before
  -- s[18], none has run out. Else the ones whose lease ended go, and s[18] is the next to end.
  local held = ''
  if tickets_at then held = sub(raw, tickets_at) end
  local purged = false
  if s[2] > 0 and not (t < s[18]) then
    local kept, low = {}, 0
    for at = 1, #held, 16 do
      local ends = sunpack('>d', held, at + 8)
      if ends > t then
        kept[#kept + 1] = sub(held, at, at + 15)
        if low == 0 or ends < low then low = ends end
      end
    end
    held = concat(kept)
    s[2] = #kept
    s[18] = low
    purged = true
  end
  local p = 1
  if graphql then p = 2 end
  -- The points log held apart, with room for the cost once its left entries are dropped, is
  -- charged straight from the value (drop_apart, charge_apart), not loaded; a refusal by another
  -- rule leaves it as read.
  local cap = REST
  if graphql then cap = GQL end
  local apart, live, first, newest, newest_w = false, false, 0, 0, 0
  if LOG_USES[p] and t >= at0 and cost > 0 and s[2 + p] < 0 then
    live, first, newest, newest_w = drop_apart(p, t, t)
    apart = live and live + cost <= cap
  end
  local cpu_how = 0
  if op == AT_ONCE then cpu_how = 1 end
  local logs
  if apart then logs = load_logs(t, 0, graphql, content, cpu_how, cpu_how) else logs = load_logs(t, p, graphql, content, cpu_how, cpu_how) end
  drop_logs(logs, t)
  local elapsed = t - s[1]
  -- The fixed window's reset and used (fixed-window.ts: currentReset, windowUsed), written out.
  local reset, used = ceil((t + w) / 1000) * 1000, 0
  if s[ws] > t and s[ws] <= reset then reset, used = s[ws], s[ws + 1] end
  local primary_denied = counts and used >= limit
  local rule = 0
  local retry_at = t
  local in_flight = s[2]
  if in_flight >= CONCURRENCY then rule = 2; retry_at = t + CONCURRENCY_RETRY_MS end
  -- A rule counted in a log keeps its log's number here: no bucket to refill (save_logs writes it).
  local rest, gql = s[3], s[4]
${log(1, '', '  rest = refill(rest, REST, elapsed)\n')}${log(2, '', '  gql = refill(gql, GQL, elapsed)\n')}  local points, points_rule = rest, 3
  if graphql then points, points_rule = gql, 4 end
  local wait
  if not LOG_USES[p] then
    wait = bucket_wait(points, cost, cap, PW)
  elseif apart then
    wait = 0
  elseif logs[p][5] + cost <= cap then
    wait = 0 -- its left entries dropped (drop_logs): its sum is its live sum
  else
    wait = log_wait(logs[p], t, LOG_SPANS[p], cost, cap)
  end
  if wait > 0 then
    if rule == 0 then rule = points_rule end
    retry_at = max(retry_at, t + wait)
  end
  wait = read_wait(logs, 3, t, LOG_SPANS[3], 1, CPU)
  if wait > 0 then
    if rule == 0 then rule = 5 end
    retry_at = max(retry_at, t + wait)
  end
  if graphql then
    wait = read_wait(logs, 4, t, LOG_SPANS[4], 1, GQL_CPU)
    if wait > 0 then
      if rule == 0 then rule = 6 end
      retry_at = max(retry_at, t + wait)
    end
  end
  local minute, hour = s[7], s[8]
${log(5, '', '  minute = refill(minute, PER_MINUTE, elapsed)\n')}${log(6, '', '  hour = refill(hour, PER_HOUR, elapsed)\n')}  if content then
    wait = ${log(5, 'log_wait(logs[5], t, MINUTE, 1, PER_MINUTE)', 'bucket_wait(minute, 1, PER_MINUTE, MINUTE)')}
    if wait > 0 then
      if rule == 0 then rule = 7 end
      retry_at = max(retry_at, t + wait)
    end
    wait = ${log(6, 'log_wait(logs[6], t, HOUR, 1, PER_HOUR)', 'bucket_wait(hour, 1, PER_HOUR, HOUR)')}
    if wait > 0 then
      if rule == 0 then rule = 8 end
      retry_at = max(retry_at, t + wait)
    end
  end
  -- A denied request changes no state (all or nothing). Entries that left a log held apart and
  -- leases that ran out are written back (its expiry unchanged), so a caller refused for an hour
  -- costs one look per log, not one per entry that left. A primary refusal also waits for any
  -- secondary rule that is full too.
  if primary_denied or rule ~= 0 then
    NPARTS = 1
    local dropped = kept_dropped(logs)
    if dropped or purged then
      PARTS[1] = pack_state()
      NPARTS = NPARTS + 1
      PARTS[NPARTS] = held
      redis.call('SET', key, concat(PARTS, '', 1, NPARTS), 'KEEPTTL')
    end
  end
  if primary_denied then
    local freed = reset
    if rule ~= 0 then freed = max(reset, retry_at) end
    return spack('<dddddd', 0, 1, used, reset, freed, reading)
  end
  if rule ~= 0 then return spack('<dddddd', 0, rule, used, reset, retry_at, reading) end
  local new_used = used
  if counts then new_used = used + 1 end
  s[1] = t
  s[2] = in_flight + 1
  if op == AT_ONCE then s[2] = in_flight end
  -- drop_logs dropped what left by t; only a clock that went back can leave an entry after t for
  -- settling to move (every entry is stamped at or before the state's time). A log all of whose
  -- entries left stays as dropped (first index past the last): charging appends to it all the same.
  if t < at0 then settle_logs(logs, t) end
  if apart then charge_apart(p, cost, t, live, first, newest, newest_w) elseif LOG_USES[p] then charge_log(logs[p], t, cost, 1) end
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
${log(5, '    charge_log(logs[5], t, 1, 1)\n')}${log(6, '    charge_log(logs[6], t, 1, 1)\n')}  end
  local counted_reset = 0
  if counts then s[ws] = reset; s[ws + 1] = new_used; counted_reset = reset end
  if op == AT_ONCE then
    -- The completion's 304 refund (seed 000, "Polling rules"); the answer still shows the admission.
    if counts and status == 304 then s[ws + 1] = used end
    local charge = 0
    if cpu_ms > 0 then charge = ceil(cpu_ms) end
    charge_log(logs[3], t, min(charge, CPU), LOG_QUANTA[3])
    if graphql then charge_log(logs[4], t, min(charge, GQL_CPU), LOG_QUANTA[4]) end
    save(key, t, logs, held)
    return spack('<ddddd', 1, new_used, reset, counted_reset, 0)
  end
  -- A ticket id is never handed out twice for an identity: the time, and a counter within it.
  -- Ids only grow while the identity has state (and start from the time after it expired).
  local id = t * 1024
  if s[17] + 1 > id then id = s[17] + 1 end
  s[17] = id
  if in_flight == 0 or s[18] == 0 or lease_end < s[18] then s[18] = lease_end end
  -- A rule counted in a log gets its number of the state from save_logs.
  save(key, t, logs, held, spack('>dd', id, lease_end), lease_end)
  return spack('<ddddd', 1, new_used, reset, counted_reset, id)
end
`;
}

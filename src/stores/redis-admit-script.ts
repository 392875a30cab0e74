/** The admission half of the limits script (ops `a` and `x`): what `stepInto` decides for an admit event, inside Redis. */

/**
 * Placed in the script after the state is read (`s`, `t`, `now`, the window `ws` and `w`)
 * and after its functions (`load_logs`, `save`, the buckets' and logs' arithmetic): the deadline
 * check, every rule of the request in `stepInto`'s order, and on admission the charge, the ticket
 * and the save. Ends the script for an admission; a completion or release runs past it.
 * @example
 * import { ADMIT_LUA } from './redis-admit-script.js';
 * ADMIT_LUA.includes("redis.call('ZADD'"); // true
 */
export const ADMIT_LUA = `-- An admission the caller stopped waiting for (ARGV[9], a time of the server's clock) charges
-- nothing: it was answered by the failure mode already (the store's \`timeoutMs\`).
if (op == 'a' or op == 'x') and ARGV[9] ~= '' then
  if server_clock() > tonumber(ARGV[9]) then return { 2 } end
end
-- \`x\`: admitted and settled at once (a request answered without a slot: a policy refusal that
-- counts): the same transition as \`a\` then \`c\` at the same instant, in one call.
if op == 'a' or op == 'x' then
  local limit, cost = tonumber(ARGV[4]), tonumber(ARGV[5])
  local content, graphql, counts = ARGV[6] == '1', ARGV[7] == '1', ARGV[8] == '1'
  local reading = t
  if now >= 0 and now ~= math.huge then reading = min(floor(now), t) end
  local lease_end = t + LEASE_MS
  -- The tickets held with a lease still running are the requests in flight. s[2] counts the
  -- tickets the set holds, some maybe with their lease run out: 0, and there is none to count.
  if raw and s[2] > 0 and not (s[18] and t < s[18]) then
    redis.call('ZREMRANGEBYSCORE', tickets_key, '-inf', t)
    s[2] = redis.call('ZCARD', tickets_key)
    s[18] = nil
    if s[2] > 0 then s[18] = tonumber(redis.call('ZRANGE', tickets_key, 0, 0, 'WITHSCORES')[2]) end
  end
  local p = 1
  if graphql then p = 2 end
  local logs = load_logs(p, graphql, content)
  for i = 1, 6 do if logs[i] then drop_left(logs[i], t, LOG_SPANS[i]) end end
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
  local points, cap, points_rule = rest, REST, 3
  if graphql then points, cap, points_rule = gql, GQL, 4 end
  local wait
  if LOG_USES[p] then wait = log_wait(logs[p], t, LOG_SPANS[p], cost, cap) else wait = bucket_wait(points, cost, cap, PW) end
  if wait > 0 then
    if rule == 0 then rule = points_rule end
    retry_at = max(retry_at, t + wait)
  end
  wait = log_wait(logs[3], t, LOG_SPANS[3], 1, CPU)
  if wait > 0 then
    if rule == 0 then rule = 5 end
    retry_at = max(retry_at, t + wait)
  end
  if graphql then
    wait = log_wait(logs[4], t, LOG_SPANS[4], 1, GQL_CPU)
    if wait > 0 then
      if rule == 0 then rule = 6 end
      retry_at = max(retry_at, t + wait)
    end
  end
  local minute = refill(s[7], PER_MINUTE, elapsed)
  local hour = refill(s[8], PER_HOUR, elapsed)
  if content then
    if LOG_USES[5] then wait = log_wait(logs[5], t, MINUTE, 1, PER_MINUTE) else wait = bucket_wait(minute, 1, PER_MINUTE, MINUTE) end
    if wait > 0 then
      if rule == 0 then rule = 7 end
      retry_at = max(retry_at, t + wait)
    end
    if LOG_USES[6] then wait = log_wait(logs[6], t, HOUR, 1, PER_HOUR) else wait = bucket_wait(hour, 1, PER_HOUR, HOUR) end
    if wait > 0 then
      if rule == 0 then rule = 8 end
      retry_at = max(retry_at, t + wait)
    end
  end
  -- A denied request changes no state (all or nothing). A primary refusal also waits for any
  -- secondary rule that is full too.
  if primary_denied or rule ~= 0 then keep_dropped(logs) end
  if primary_denied then
    local freed = reset
    if rule ~= 0 then freed = max(reset, retry_at) end
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
    if tonumber(ARGV[11]) > 0 then charge = ceil(tonumber(ARGV[11])) end
    charge_log(logs[3], t, min(charge, CPU), LOG_QUANTA[3])
    if graphql then charge_log(logs[4], t, min(charge, GQL_CPU), LOG_QUANTA[4]) end
    save(logs)
    return { 1, new_used, reset, counted_reset, 0 }
  end
  -- A ticket id is never handed out twice for an identity: the time, and a counter within it.
  -- Ids only grow while the identity has state (and start from the time after it expired).
  local id = max(s[17] + 1, t * 1024)
  s[17] = id
  if in_flight == 0 or not s[18] then s[18] = lease_end else s[18] = min(s[18], lease_end) end
  redis.call('ZADD', tickets_key, lease_end, string.format('%.0f', id))
  -- A rule counted in a log gets its number of the state from save_logs.
  save(logs, true)
  return { 1, new_used, reset, counted_reset, id }
end
`;

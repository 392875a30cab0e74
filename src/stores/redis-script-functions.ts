/** The Lua functions of the limits script: the arithmetic of `stepInto` (buckets, windows, expiry). */

/**
 * Placed after the script's constants (WINDOWS, REST, GQL, ...) and the sliding logs' functions
 * (redis-log-script.ts: `LOG_USES`, `logs_expire`), which they read. Each mirrors the TypeScript
 * function of the same job in src/limits (fixed-window, token-bucket, state-expiry), in the same
 * IEEE doubles (effective-time is written out where the script reads its clock).
 * Written for the config's log plan (`uses`, LOG_RULES order; `spans`, each log's): a bucket's
 * refill counts in the expiry only for a rule the config counts in a bucket.
 * @example
 * import { luaFunctions } from './redis-script-functions.js';
 * luaFunctions([true, true, true, true, true, true], [60000, 60000, 61000, 61000, 60000, 3600000]).includes('local function refill'); // true
 */
export function luaFunctions(uses: readonly boolean[], spans: readonly number[]): string {
  /** An expiry line for a rule (1-based log index) counted in a bucket. */
  const bucket = (i: number, lua: string) => (uses[i - 1] ? '' : `\n  ${lua}`);
  /** A line for a rule (1-based log index) counted in a log. */
  const log = (i: number, lua: string) => (uses[i - 1] ? `\n  ${lua}` : '');
  /** The state numbers of the rules counted in buckets, with their ceilings (LOG_RULES order). */
  const buckets: [number, string][] = [
    [1, 'REST'],
    [2, 'GQL'],
    [5, 'PER_MINUTE'],
    [6, 'PER_HOUR'],
  ];
  return `local function refill(spent, cap, elapsed)
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
  local latest = max(s[9], s[11], s[13], s[15], logs_expire(logs))${bucket(1, 'latest = max(latest, refilled_at(s[1], s[3], REST))')}${bucket(2, 'latest = max(latest, refilled_at(s[1], s[4], GQL))')}${bucket(5, 'latest = max(latest, refilled_at(s[1], s[7], PER_MINUTE))')}${bucket(6, 'latest = max(latest, refilled_at(s[1], s[8], PER_HOUR))')}
  if s[2] > 0 and s[1] + LEASE_MS > latest then latest = s[1] + LEASE_MS end
  return latest
end
-- The expiry the value was written with, when it is known to be the latest window end of the state
-- as read (else -1). A write whose expiry is that same end keeps it (SET KEEPTTL: half of SET PX's
-- cost in Redis); one that ends later, or earlier (a lease given back), sets it. Safe: every write
-- gave the value at least the window ends of the state it wrote (expires_at, plus SKEW past t and
-- at most SKEW past the server's clock), and a kept expiry kept that. Tidy: every other part of
-- expires_at ends by then in the state as read (a log's newest entry is never after the state's
-- time, nor a lease more than LEASE_MS after it), so the expiry kept is no later than a new one.
-- (A refusal that wrote back leases that ran out kept an expiry for a state that ends earlier: the
-- value lives that much longer, as it did.) An injected clock is not the server's: its writes
-- always set the expiry.
local function written_expiry()
  local latest = s[9]
  if s[11] > latest then latest = s[11] end
  if s[13] > latest then latest = s[13] end
  if s[15] > latest then latest = s[15] end${[1, 2, 3, 4, 5, 6]
    .map((i) => log(i, `if s[${2 + i}] ~= 0 and at0 + ${spans[i - 1]} > latest then return -1 end`))
    .join('')}${buckets
    .map(([i, cap]) => bucket(i, `if refilled_at(at0, s[${2 + i}], ${cap}) > latest then return -1 end`))
    .join('')}
  if s[2] > 0 and at0 + LEASE_MS > latest then return -1 end
  return latest
end`;
}

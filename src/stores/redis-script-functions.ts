/** The Lua functions of the limits script: the arithmetic of `stepInto` (buckets, windows, expiry). */

/**
 * Placed after the script's constants (WINDOWS, REST, GQL, ...) and the sliding logs' functions
 * (redis-log-script.ts: `LOG_USES`, `logs_expire`), which they read. Each mirrors the TypeScript
 * function of the same job in src/limits (fixed-window, token-bucket, state-expiry), in the same
 * IEEE doubles (effective-time is written out where the script reads its clock).
 * Written for the config's log plan (`uses`, LOG_RULES order): a bucket's refill counts in the
 * expiry only for a rule the config counts in a bucket.
 * @example
 * import { luaFunctions } from './redis-script-functions.js';
 * luaFunctions([true, true, true, true, true, true]).includes('local function refill'); // true
 */
export function luaFunctions(uses: readonly boolean[]): string {
  /** An expiry line for a rule (1-based log index) counted in a bucket. */
  const bucket = (i: number, lua: string) => (uses[i - 1] ? '' : `\n  ${lua}`);
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
end`;
}

/** The function of the Redis script that loads the logs an event needs (redis-log-script.ts). */

/** Why the event needs log `i` (1-based) loaded, besides holding it apart or the clock going back. */
const NEEDED: Record<number, string> = {
  1: 'points == 1',
  2: 'points == 2',
  // The CPU logs are charged by completions (and admissions settled at once), each by load,
  // settle and charge, or already by charge_apart (2); an admission only reads them: see READ.
  3: 'cpu_how == 1',
  4: 'graphql and gql_cpu_how == 1',
  5: 'content',
  6: 'content',
};

/**
 * A log an admission only reads (a CPU log): when, and against which ceiling. One held apart whose
 * sum, left entries included, still leaves room for the request cannot refuse it: it is carried as
 * read, as a log the event does not read is (read_wait answers 0 for it), instead of loaded.
 */
const READ: Record<number, [when: string, cap: string]> = {
  3: ['cpu_how == 0', 'CPU'],
  4: ['graphql and gql_cpu_how == 0', 'GQL_CPU'],
};

/** The lines of `load_logs` for log `i` (1-based), a log the config keeps. */
function loadLogLua(i: number): string {
  const load = `logs[${i}] = load_log(${i}, at0); NL = NL + 1; LOADED[NL] = ${i}`;
  const read = READ[i];
  const room =
    read === undefined
      ? ''
      : ` or (slot < 0 and ${read[0]} and sunpack('>d', raw, LOG_AT[${i}]) + 1 > ${read[1]})`;
  // An empty log the event does not charge is left out at once (loaded, it would stay empty,
  // even when the clock went back: there is no entry to move).
  return `  slot = s[${2 + i}]
  if slot == 0 then
    if ${NEEDED[i]} then ${load} end
  elseif back or ${NEEDED[i]} or (slot > 0 and t - packed_time(slot) >= SLOT_MAX_AGE)${room} then
    ${load}
  elseif slot < 0 then
    logs[${i}] = true; logs[${6 + i}] = slot; NL = NL + 1; LOADED[NL] = ${i}
  else
    logs[${6 + i}] = slot; NP = NP + 1; PACKED[NP] = ${i}
  end`;
}

/**
 * The Lua function `load_logs(t, points, graphql, content, cpu_how, gql_cpu_how)` for a config whose log plan keeps the
 * logs `kept` (0-based, LOG_RULES order): written out per log kept, no loop over all six.
 * Placed after `load_log`, `packed_time` and the lists it fills (LOADED, PACKED).
 * @example
 * import { loadLogsLua } from './redis-log-load-script.js';
 * loadLogsLua([0, 2, 3]).includes('logs[3] = load_log(3, at0)'); // true
 */
export function loadLogsLua(kept: readonly number[]): string {
  return `-- The logs an event reads or charges: the points log \`points\` (1 REST, 2 GraphQL, 0 none), the
-- CPU logs as \`cpu_how\` and \`gql_cpu_how\` say (0: only read, see read_wait; 1: charged here; 2:
-- charged already, by charge_apart), the content logs; every log when the clock went back (an entry may
-- lie in the future: settling moves it). Any other log is held apart (carried as read: \`true\`,
-- see raw_log), packed in its number, or empty: left out (false), its number moved to the new
-- time at save (save_logs), as loading would leave it.
-- Written out per log the config keeps (a rule counted in a bucket has no log), in ascending
-- order; an entry too old for a packed number once moved to t (a points window of days) spills.
local function load_logs(t, points, graphql, content, cpu_how, gql_cpu_how)
  local logs = { false, false, false, false, false, false, 0, 0, 0, 0, 0, 0 }
  local back = t < at0
  local slot
  NL, NP = 0, 0
${kept.map((index) => loadLogLua(index + 1)).join('\n')}
  return logs
end`;
}

// Where the Redis script's time goes, section by section: `npm run bench:redis-sections [-- words]`
// (builds first; needs redis-server; words pick the sections whose name has one). perf
// cannot say: Debian's redis-server has no symbols for its Lua interpreter. Nor can the script
// time itself: `os` is absent, and a `TIME` read costs more than most sections. So each section
// runs K times instead of once (the library is rewritten before it is loaded), the redis
// scenario's ops run at 64 in flight over its 10,000 identities on a fresh redis-server, and
// (µs per event with the section repeated - µs per event as shipped, measured just before) / (K - 1)
// is the section's cost (per event: the store sends the events of one turn as one batch call,
// so an FCALL carries up to 16). Biases, all toward less: a repeat runs warm (its data in cache), and a
// string it builds again is the one Lua already interned (a table it builds is made K times). So
// the sections add up to less than the event; the rest is FCALL itself and the batch's one
// `TIME`, shared by its events, the first touch of the identity's data, and the code
// in no section (the rules' checks, the deadline, the answer: about 0.2-0.3 µs each).
// The run is short (6 s a figure) and the logs span 60 s and more: no entry leaves a log during
// it, so the sections that drop left entries measure their reads, not the dropping.

import { defaultLimits } from '../dist/limits.js';
import { createRedisStore } from '../dist/redis.js';
import { rate, roomyLimits, startRedis, tollgateOps } from './redis.mjs';
import { commandStats } from './redis-diagnostics.mjs';

// Runs as shipped moved between 19 and 27 µs a call over one run of this tool on a loaded
// machine, a few µs between neighbours: with 9 repeats, an admission's section is good to about
// ±0.5 µs, a completion's to about ±1 µs (every other call of a whole request is one, so its
// difference counts twice).
const K = 9;
const WARM_MS = 2000;
const MEASURE_MS = 4000;
const TIMEOUT_MS = 1000; // the redis scenario's

/**
 * The sections: the op whose calls run it, its name, and its code exactly as the generated library
 * has it (one line; followed by the lines after it where the line alone is not unique: only the
 * first is repeated). A fourth element is what to repeat instead of that line.
 * `local a, b = f()` is repeated as `local a, b; for ... do a, b = f() end`.
 */
const SECTIONS = [
  [
    'admit',
    'the argument read (struct.unpack)',
    "op, resource, content, graphql, counts, clocked, timed, clock, limit, cost, deadline = sunpack('<BBBBBBBdddd', arg)",
  ],
  ['admit', "the server's clock (TIME)", "local time = redis.call('TIME')"],
  [
    'admit',
    "GET, the state's numbers, the logs located, the expiry kept (read_value)",
    'local tickets_at = read_value(key, clocked)',
  ],
  ['admit', "of which the state's 18 numbers (cmsgpack.unpack_limit)", 's = header(munpack_limit(raw, 18))'],
  [
    'admit',
    'the points log: its sum, oldest and newest entries read (drop_apart)',
    'live, first, newest, newest_w = drop_apart(p, t, t)',
  ],
  [
    'admit',
    'load_logs (here its fixed cost: the other logs are carried as read or empty)',
    'if apart then logs = load_logs(t, 0, graphql, content, cpu_how, cpu_how) else logs = load_logs(t, p, graphql, content, cpu_how, cpu_how) end',
  ],
  [
    'admit',
    'the points log charged (charge_apart)',
    'charge_apart(p, cost, t, live, first, newest, newest_w)',
  ],
  [
    'admit',
    'save: the expiry, the logs, the state packed, the value joined, SET',
    "save(key, t, logs, held, spack('>dd', id, lease_end), lease_end)",
  ],
  ['admit', 'of save, alone: the expiry (expires_at)', 'local expires = expires_at(s, logs)'],
  // save_logs adds the logs' bytes to the value's pieces: each repeat starts them afresh.
  [
    'admit',
    "of save, alone: the logs' numbers and bytes (save_logs)",
    'save_logs(logs, t)\n  PARTS[1]',
    'NPARTS = 1; save_logs(logs, t)',
  ],
  [
    'admit',
    'of save, alone: the value joined (table.concat) and SET with its expiry kept',
    "redis.call('SET', key, concat(PARTS, '', 1, NPARTS), 'KEEPTTL')\n  else",
  ],
  [
    'admit',
    "of save, alone: the state's numbers packed (cmsgpack.pack)",
    'PARTS[1] = pack_state()\n  NPARTS = NPARTS + 1\n  PARTS[NPARTS] = held\n  if added',
  ],
  ['complete', 'the ticket found in the value (string.find)', 'found = string.find(raw, needle, from, true)'],
  [
    'complete',
    'the CPU log: its sum, oldest and newest entries read (drop_apart)',
    'local live, first, newest, newest_w = drop_apart(3, t, stamp)',
  ],
  [
    'complete',
    'the CPU log charged (charge_apart)',
    'charge_apart(3, cpu_charge, stamp, live, first, newest, newest_w)',
  ],
  [
    'complete',
    'load_logs (here its fixed cost: no log to load or settle)',
    'local logs = load_logs(t, 0, graphql, false, cpu_how, gql_cpu_how)',
  ],
  ['complete', 'save', 'save(key, t, logs, held, after)'],
];

/** The library with the first line of `code` (or `body` in its place) run K times; throws where the code is not found exactly once. */
function repeated(library, code, body) {
  const at = library.indexOf(code);
  if (at < 0 || library.indexOf(code, at + 1) >= 0)
    throw new Error(
      `redis-sections: the generated library has this code ${at < 0 ? 'nowhere' : 'twice'}: ${code.split('\n')[0]}`,
    );
  const line = code.split('\n')[0];
  const local = /^local ([\w, ]+) = (.*)$/.exec(line);
  const loop =
    body === undefined && local !== null
      ? `local ${local[1]}; for _r = 1, ${K} do ${local[1]} = ${local[2]} end`
      : `for _r = 1, ${K} do ${body ?? line} end`;
  return library.slice(0, at) + loop + library.slice(at + line.length);
}

const config = roomyLimits(defaultLimits());

/** The library the store loads for `config`, and every chosen section's rewrite of it, each loaded once to check it compiles. */
async function libraries(chosen) {
  const { client, stop } = await startRedis();
  try {
    let shipped;
    const load = client.function.bind(client);
    client.function = (...args) => {
      if (args[0] === 'LOAD') shipped = args[args.length - 1];
      return load(...args);
    };
    await tollgateOps(createRedisStore({ client, timeoutMs: TIMEOUT_MS }), config).admit(0, 0);
    if (shipped === undefined) throw new Error('redis-sections: the store loaded no function library');
    const rewritten = chosen.map(([, , code, body]) => repeated(shipped, code, body));
    for (const library of rewritten) await load('LOAD', 'REPLACE', library);
    return { shipped, rewritten };
  } finally {
    stop();
  }
}

/**
 * Redis µs per event with `library` loaded in place of the store's: admissions alone ('admit'), or
 * whole requests ('complete': admit, then complete; two events). Per event, not per FCALL: the
 * store sends the events of one turn as one batch call. Throws if any call failed.
 */
async function microsPerEvent(mode, library) {
  const { client, stop } = await startRedis();
  try {
    const load = client.function.bind(client);
    client.function = (...args) => {
      if (args[0] === 'LOAD') args[args.length - 1] = library;
      return load(...args);
    };
    // Loaded before the first call, under the store's own name: no call fails to find it.
    await load('LOAD', 'REPLACE', library);
    const { admit, whole } = tollgateOps(createRedisStore({ client, timeoutMs: TIMEOUT_MS }), config);
    const op = mode === 'admit' ? admit : whole;
    await client.config('RESETSTAT');
    await rate(op, 64, WARM_MS);
    const warm = await commandStats(client, ['fcall']);
    await client.config('RESETSTAT');
    let ops = 0;
    await rate(op, 64, MEASURE_MS, (_us, done) => {
      ops = done;
    });
    const stats = await commandStats(client, ['fcall']);
    const failed = warm.failed + warm.rejected + stats.failed + stats.rejected;
    if (stats.calls === 0 || ops === 0 || failed > 0)
      throw new Error(`redis-sections: ${failed} of the calls failed (${stats.calls} counted)`);
    return stats.usec / (ops * (mode === 'admit' ? 1 : 2));
  } finally {
    stop();
  }
}

const words = process.argv.slice(2);
const chosen = SECTIONS.filter(([, name]) => words.length === 0 || words.some((word) => name.includes(word)));
if (chosen.length === 0) {
  console.error(`redis-sections: no section's name has ${words.join(' or ')}`);
  process.exit(2);
}
// A section's code not found, a rewrite that does not load, a failed call: one line, exit 1.
const fail = (error) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
};
const { shipped, rewritten } = await libraries(chosen).catch(fail);
// A completion is every other event of a whole request: its section moves the mean by half its cost.
const eventsPerSectionRun = { admit: 1, complete: 2 };
console.log(
  `Redis µs per event at 64 in flight; each section run ${K} times, beside a run as shipped just before it:`,
);
const baselines = { admit: [], complete: [] };
for (const [i, [mode, name]] of chosen.entries()) {
  const base = await microsPerEvent(mode, shipped).catch(fail);
  const micros = await microsPerEvent(mode, rewritten[i]).catch(fail);
  baselines[mode].push(base);
  const cost = ((micros - base) / (K - 1)) * eventsPerSectionRun[mode];
  const shown = (Math.abs(cost) < 0.05 ? 0 : cost).toFixed(1);
  console.log(`  ${mode === 'admit' ? 'admission ' : 'completion'}  ${shown.padStart(5)} µs  ${name}`);
}
// How far the runs as shipped moved: the noise every section's figure carries, divided by K - 1.
const range = (values) =>
  values.length === 0 ? 'not run' : `${Math.min(...values).toFixed(1)}-${Math.max(...values).toFixed(1)}`;
console.log(
  `as shipped, µs per event over the runs: admissions alone ${range(baselines.admit)}, whole requests ${range(baselines.complete)}`,
);

// Where the Redis script's time goes, section by section: `node bench/redis-sections.mjs` (after
// `npm run build`; needs redis-server). perf cannot say, since Debian's redis-server has no
// symbols for its Lua interpreter, and the script cannot read a clock finer than TIME. So each
// section is run K times instead of once (the library is rewritten as it is loaded) and the
// redis scenario's ops run at 64 in flight over its 10,000 identities on a fresh redis-server:
// (µs per call with the section repeated - µs per call as shipped) / (K - 1) is that section's
// cost. A repeat runs warm (its data in cache; any garbage it makes collected with the rest), so
// the sections add up to less than the call: the remainder is FCALL itself, the first touch of the
// identity's data and Lua's garbage collection.

import { defaultLimits } from '../dist/limits.js';
import { createRedisStore } from '../dist/redis.js';
import { rate, roomyLimits, startRedis, tollgateOps } from './redis.mjs';

// Two runs as shipped differ by up to about 3 µs a call: with 9 repeats and 4 s a figure, a
// section's figure moves by about half a µs (a completion's, twice that).
const K = 9;
const WARM_MS = 2000;
const MEASURE_MS = 4000;

/**
 * The sections: the op whose calls run it, its code exactly as the generated library has it
 * (with what follows where the first line alone is not unique), and what to repeat when not the
 * first line itself. `local a, b = f()` is repeated as `local a, b; for ... do a, b = f() end`.
 */
const SECTIONS = [
  [
    'admit',
    'the argument read (struct.unpack)',
    "op, resource, content, graphql, counts, clocked, timed, clock, limit, cost, deadline = sunpack('<BBBBBBBdddd', arg)",
  ],
  ['admit', "the server's clock (TIME)", "local time = redis.call('TIME')"],
  ['admit', "GET, the state's numbers and the logs located", 'local tickets_at = read_value(key, clocked)'],
  ['admit', "of which the state's 18 numbers (cmsgpack.unpack_limit)", 's = header(munpack_limit(raw, 18))'],
  [
    'admit',
    'the points log: the entries that left dropped (drop_apart)',
    'live, first, newest, newest_w = drop_apart(p, t, t)',
  ],
  [
    'admit',
    'the other logs loaded and dropped (load_logs, drop_logs)',
    'if apart then logs = load_logs(t, 0, graphql, content, cpu_how, cpu_how) else logs = load_logs(t, p, graphql, content, cpu_how, cpu_how) end\n  drop_logs(logs, t)',
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
  ['admit', 'of which the expiry (expires_at)', 'local expires = expires_at(s, logs)'],
  // save_logs adds the logs' bytes to the value's pieces: each repeat starts them afresh.
  [
    'admit',
    "of which the logs' numbers and bytes (save_logs)",
    'save_logs(logs, t)\n  PARTS[1]',
    'NPARTS = 1; save_logs(logs, t)',
  ],
  [
    'admit',
    'of which the value joined (table.concat) and SET with its expiry kept',
    "redis.call('SET', key, concat(PARTS, '', 1, NPARTS), 'KEEPTTL')\n  else",
  ],
  [
    'admit',
    "of which the state's numbers packed (cmsgpack.pack)",
    'PARTS[1] = pack_state()\n  NPARTS = NPARTS + 1\n  PARTS[NPARTS] = held\n  if added',
  ],
  ['complete', 'the ticket found in the value (string.find)', 'found = string.find(raw, needle, from, true)'],
  [
    'complete',
    'the CPU log: the entries that left dropped (drop_apart)',
    'local live, first, newest, newest_w = drop_apart(3, t, stamp)',
  ],
  [
    'complete',
    'the CPU log charged (charge_apart)',
    'charge_apart(3, cpu_charge, stamp, live, first, newest, newest_w)',
  ],
  [
    'complete',
    'the other logs loaded (load_logs) and settled (settle_logs)',
    'local logs = load_logs(t, 0, graphql, false, cpu_how, gql_cpu_how)',
  ],
  ['complete', 'save', 'save(key, t, logs, held, after)'],
];

/** The library with the first line of `code` (or `body` in its place) run K times. */
function repeated(library, code, body) {
  const at = library.indexOf(code);
  if (at < 0 || library.indexOf(code, at + 1) >= 0)
    throw new Error(
      `redis-sections: the generated library has this code ${at < 0 ? 'nowhere' : 'twice'}: ${code.split('\n')[0]}`,
    );
  const line = code.split('\n')[0];
  const local = /^local ([\w, ]+) = (.*)$/.exec(line);
  const loop = local
    ? `local ${local[1]}; for _r = 1, ${K} do ${local[1]} = ${local[2]} end`
    : `for _r = 1, ${K} do ${body ?? line} end`;
  return library.slice(0, at) + loop + library.slice(at + line.length);
}

/** Redis µs per FCALL of the op `mode` ('admit': admissions alone; 'complete': whole requests, per completion) with the library changed by `change`. */
async function microsPerCall(mode, change) {
  const { client, stop } = await startRedis();
  try {
    const load = client.function.bind(client);
    client.function = (...args) => {
      if (args[0] === 'LOAD') args[args.length - 1] = change(args[args.length - 1]);
      return load(...args);
    };
    const config = roomyLimits(defaultLimits());
    const { admit, whole } = tollgateOps(createRedisStore({ client, timeoutMs: 5000 }), config);
    const op = mode === 'admit' ? admit : whole;
    await rate(op, 64, WARM_MS);
    await client.config('RESETSTAT');
    await rate(op, 64, MEASURE_MS);
    const stats = /cmdstat_fcall:calls=(\d+),usec=(\d+)/.exec(await client.info('commandstats'));
    if (stats === null) throw new Error('redis-sections: no FCALL was counted');
    return Number(stats[2]) / Number(stats[1]);
  } finally {
    stop();
  }
}

// `node bench/redis-sections.mjs save`: only the sections whose name has one of the words given.
const words = process.argv.slice(2);
const chosen = SECTIONS.filter(([, name]) => words.length === 0 || words.some((word) => name.includes(word)));
const asShipped = (library) => library;
const base = {};
for (const mode of ['admit', 'complete']) {
  const runs = [await microsPerCall(mode, asShipped), await microsPerCall(mode, asShipped)];
  base[mode] = { micros: (runs[0] + runs[1]) / 2, spread: Math.abs(runs[0] - runs[1]) };
}
// In whole requests every other call is a completion: a completion's section moves the mean by half its cost.
const perOpCall = { admit: 1, complete: 2 };
console.log(
  `Redis µs per call at 64 in flight, as shipped: admission ${base.admit.micros.toFixed(1)} (two runs ${base.admit.spread.toFixed(1)} apart),`,
);
console.log(
  `admission + completion ${base.complete.micros.toFixed(1)} a call (${base.complete.spread.toFixed(1)} apart); each section below, run ${K} times:`,
);
for (const [mode, name, code, body] of chosen) {
  const micros = await microsPerCall(mode, (library) => repeated(library, code, body));
  const cost = ((micros - base[mode].micros) / (K - 1)) * perOpCall[mode];
  console.log(
    `  ${mode === 'admit' ? 'admission ' : 'completion'}  ${cost.toFixed(2).padStart(6)} µs  ${name}`,
  );
}

// One bytes-per-operation figure, measured in a process of its own, as a server holds them: one
// policy, one limiter, one clock. `node bench/allocation-child.mjs <authorize|admit+complete|stack>`
// prints `{"bytes": n}`. Alone, because V8 specialises a closure's calls to what they have seen:
// in a process that has made several limiters (the in-process scenarios make many), the clock call
// in the limiter is no longer inlined and each reading is a heap number of its own, which one
// server with one limiter never pays (the figure moved from 556 to 623 B from one process to the
// next with the same code).
import * as rootEntry from '../dist/index.js';
import * as limitsEntry from '../dist/limits.js';
import * as policyEntry from '../dist/policy.js';
import * as routesEntry from '../dist/routes.js';
import { bytesPerOp } from './allocations.mjs';
import { virtualClock } from './measure.mjs';
import { buildRequestMix, withFreshTokens } from './request-mix.mjs';
import { tollgateStack } from './stack.mjs';

const lib = { ...rootEntry, ...policyEntry, ...routesEntry, ...limitsEntry };
const which = process.argv[2];
// Warmed as a server is after its first 200,000 requests: the measured calls run optimised code.
const WARM = Number(process.env.WARM ?? 200_000);
const tables = lib.shippedTables();
const items = withFreshTokens(buildRequestMix({ tables, policy: lib.createPolicy(tables) }));

async function measure() {
  if (which === 'authorize') {
    const policy = lib.createPolicy(tables);
    return bytesPerOp(
      (k) => {
        const item = items[k];
        return policy.authorize(item.request, item.token, item.context);
      },
      items.length,
      WARM,
    );
  }
  if (which === 'admit+complete') {
    const limiter = lib.createLimiter({ store: lib.createMemoryStore(), clock: virtualClock(10) });
    const identities = items.map((item) => limiter.identify(item.token));
    return bytesPerOp(
      (k) => {
        const verdict = limiter.admit({ identity: identities[k], method: items[k].method });
        if (verdict.ticket !== null) limiter.complete(verdict.ticket, { status: 200 });
        return verdict;
      },
      items.length,
      WARM,
    );
  }
  if (which === 'stack')
    return bytesPerOp(tollgateStack({ lib, tables, items }).tollgateOne, items.length, WARM);
  throw new Error(`allocation-child: unknown measurement ${which}; valid: authorize, admit+complete, stack`);
}

console.log(JSON.stringify({ bytes: await measure() }));

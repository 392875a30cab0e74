// Records the Decision for every request of the bench mix (every endpoint, every token kind) into
// test/fixtures/golden-decisions.ndjson.gz: the reference the golden test replays, byte for byte.
// Rerun only for a deliberate change of behaviour, and say which in the commit.
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
// @ts-expect-error: the bench's mix is plain JavaScript
import { buildRequestMix } from '../bench/request-mix.mjs';
import { createPolicy } from '../src/index.js';
import { shippedTables } from '../src/policy/shipped-tables.js';

const tables = shippedTables();
const policy = createPolicy(tables);
const items = buildRequestMix({ tables, policy }) as { request: object; token: object; context: object }[];
const lines = items.map(({ request, token, context }) =>
  JSON.stringify({
    request,
    token,
    context,
    decision: policy.authorize(request as never, token as never, context as never),
  }),
);
writeFileSync('test/fixtures/golden-decisions.ndjson.gz', gzipSync(`${lines.join('\n')}\n`, { level: 9 }));
console.log(`recorded ${lines.length} decisions`);

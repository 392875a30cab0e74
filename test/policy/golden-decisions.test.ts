// No behaviour change on the hot path: every Decision of the recorded bench mix (every endpoint,
// every token kind, public and private) replays byte for byte. Re-record with
// `npx tsx scripts/record-golden-decisions.ts` only for a deliberate change, named in the commit.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { authorize } from '../../src/index.js';

const recorded = gunzipSync(
  readFileSync(join(import.meta.dirname, '..', 'fixtures', 'golden-decisions.ndjson.gz')),
)
  .toString('utf8')
  .trimEnd()
  .split('\n');

describe('golden decisions', () => {
  it('holds the whole bench mix', () => {
    expect(recorded.length).toBeGreaterThanOrEqual(4000);
  });

  it('gives the recorded Decision for every recorded request, byte for byte', () => {
    const differing: string[] = [];
    for (const line of recorded) {
      const { request, token, context, decision } = JSON.parse(line);
      const now = JSON.stringify(authorize(request, token, context));
      if (now !== JSON.stringify(decision))
        differing.push(
          `${request.method} ${request.path} (${token.kind}):\n  was ${JSON.stringify(decision)}\n  now ${now}`,
        );
    }
    expect(differing.slice(0, 5).join('\n')).toBe('');
    expect(differing).toHaveLength(0);
  });
});

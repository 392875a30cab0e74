// The simulator asks what production asks: the policy for the token and the resource, then the
// limiter, with the gate's charges; tokens as token files state them; GraphQL, search and LFS
// traffic on their own limits; overlays; the request cap; bounded series; work that ends the run.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { shippedTables } from '../../src/policy/shipped-tables.js';
import { jsonChunks } from '../../src/sim/json-chunks.js';
import { readScenario } from '../../src/sim/read-scenario.js';
import type { CallerSpec } from '../../src/sim/scenario.js';
import { MAX_BUCKETS } from '../../src/sim/series-recorder.js';
import { simulate } from '../../src/sim/simulate.js';
import { run as cli, scratchFiles } from '../support/cli.js';

const file = scratchFiles('tollgate-sim-engine-');
const EVENTS = [{ endpoint: 'GET /repos/{owner}/{repo}/issues/events', weight: 1 }];
const run = (durationSeconds: number, callers: CallerSpec[]) =>
  simulate({ seed: 7, durationSeconds, callers });

describe('the simulator on the production path', () => {
  it('refuses anonymous GET /notifications as the gate does: counted by the limits, never admitted', () => {
    // seed 000: notifications need a classic token; an anonymous caller gets 401. The gate still
    // counts each refusal against the address's 60 an hour: 60 policy refusals, then primary ones.
    const [caller] = run(600, [
      {
        name: 'anon',
        token: { kind: 'anonymous', ip: '198.51.100.30' },
        behaviour: 'greedy',
        mix: [{ endpoint: 'GET /notifications', weight: 1 }],
      },
    ]).callers;
    expect(caller!.admitted).toBe(0);
    expect(caller!.policyDenied).toBe(60);
    expect(caller!.denied.primary).toBe(caller!.sent - 60);
  });

  it('gives a token stated by its kind alone the least grant its mix needs, and says so', () => {
    const [caller] = run(60, [
      {
        name: 'bot',
        token: { kind: 'fine-grained', user: 'bot' },
        behaviour: 'polite',
        rate: 1,
        mix: [...EVENTS, { endpoint: 'POST /repos/{owner}/{repo}/issues', weight: 1 }],
      },
    ]).callers;
    expect(caller!.grant).toEqual({ source: 'derived', permissions: { issues: 'write' } });
    expect(caller!.policyDenied).toBe(0);
    expect(caller!.admitted).toBe(60);
  });

  it('refuses every request of a stated token that lacks the permission', () => {
    const [caller] = run(60, [
      {
        name: 'reader',
        token: { kind: 'fine-grained', user: 'reader', permissions: { contents: 'read' } },
        behaviour: 'polite',
        rate: 1,
        mix: EVENTS,
      },
    ]).callers;
    expect(caller!.grant).toEqual({ source: 'stated', permissions: { contents: 'read' } });
    expect(caller!.admitted).toBe(0);
    expect(caller!.policyDenied).toBe(60);
  });

  it('charges GraphQL mutations 5 points against the 2,000 a minute, on the graphql resource', () => {
    // seed 000: "at most 2,000 for the GraphQL endpoint", "GraphQL with mutation 5": 400 a
    // minute. A greedy worker sends every 50 ms: the 400th at 19.95 s, refused from 20 s.
    const [caller] = run(120, [
      {
        name: 'gql',
        token: { kind: 'classic', user: 'gql', scopes: ['repo'] },
        behaviour: 'greedy',
        mix: [{ endpoint: 'POST /graphql mutation', weight: 1 }],
      },
    ]).callers;
    expect(caller!.rules.graphql_points?.firstRefusalAt).toBe(20);
    expect(caller!.series.admitted).toEqual([400, 400]);
    expect(
      caller!.series.gauges.map((g) => `${g.rule}${g.resource === undefined ? '' : `:${g.resource}`}`),
    ).toEqual(['primary:graphql', 'concurrency', 'graphql_points', 'cpu', 'graphql_cpu']);
  });

  it('counts search on its own resource, with the values a limits overlay states', () => {
    const text = (limits: string) =>
      `seed: 1\nduration_seconds: 60\n${limits}callers:\n  - name: s\n    token: { kind: classic, user: s }\n    behaviour: greedy\n    mix: [{ endpoint: "GET /search/code" }]\n`;
    const searched = (limits: string) =>
      simulate(readScenario(text(limits), 'search.yaml', shippedTables())).callers[0]!;
    // tollgate's default (data/limits.yaml, the seed shows none): 30 a minute authenticated.
    expect(searched('').admitted).toBe(30);
    expect(searched('').rules.primary?.firstRefusalAt).toBe(1.5);
    expect(searched('limits: { primary: { resources: { search: { authenticated: 10 } } } }\n').admitted).toBe(
      10,
    );
  });

  it('applies `--limits FILE` over the scenario, and names the field of a bad overlay', async () => {
    const scenario = file(
      'lfs.yaml',
      'seed: 1\nduration_seconds: 60\ncallers:\n  - name: l\n    token: { kind: anonymous, ip: 198.51.100.31 }\n    behaviour: greedy\n    workers: 20\n    latency_ms: 1\n    mix: [{ endpoint: "POST /{owner}/{repo}.git/info/lfs/objects/batch" }]\n',
    );
    // seed 000: large-file storage, unauthenticated, 300 a minute; but the batch call is a POST,
    // 5 REST points (seed 000, point costs): the 900 points a minute bind first, at 180.
    const plain = JSON.parse((await cli('simulate', scenario, '--json')).stdout);
    expect(plain.callers[0].admitted).toBe(180);
    expect(Object.keys(plain.callers[0].denied)).toEqual(['rest_points']);
    const overlay = file('lfs-limits.yaml', 'primary:\n  resources:\n    lfs:\n      anonymous: 120\n');
    const overlaid = JSON.parse((await cli('simulate', scenario, '--json', '--limits', overlay)).stdout);
    expect(overlaid.callers[0].admitted).toBe(120);
    const bad = file('bad-limits.yaml', 'primary:\n  resources:\n    lfs:\n      anonymous: -1\n');
    const refused = await cli('simulate', scenario, '--limits', bad);
    expect(refused.code).toBe(2);
    // Each problem at its line and column in the overlay that wrote it (a new user's trial: they
    // were named by field only, as `bad-limits.yaml: limits: ...`).
    expect(refused.stderr).toContain('bad-limits.yaml:4:18: `primary.resources.lfs.anonymous` must be >= 1');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    // The scenario's own `limits`, at its place in the scenario; `--limits` over it wins the field.
    const own = file(
      'own-limits.yaml',
      `${readFileSync(scenario, 'utf8')}limits:\n  secondary:\n    concurrency: { limit: 0 }\n`,
    );
    const ownRefused = await cli('simulate', own);
    expect([ownRefused.code, ownRefused.stderr.trim()]).toEqual([
      2,
      `tollgate: ${own}:12:27: \`secondary.concurrency.limit\` must be >= 1`,
    ]);
    const fixed = file('fixed.json', '{"secondary": {"concurrency": {"limit": 2.5}}}');
    const jsonRefused = await cli('simulate', own, '--limits', fixed);
    expect(jsonRefused.stderr.trim()).toBe(
      `tollgate: ${fixed}:1:41: \`secondary.concurrency.limit\` must be integer`,
    );
  });

  it('refuses a scenario over 10^9 requests up front, naming the field, unless told to go on', async () => {
    const scenario = file(
      'flood.yaml',
      'seed: 1\nduration_seconds: 31536000\ncallers:\n  - name: f\n    token: { kind: classic, user: f, scopes: [notifications] }\n    rate: 1000000000\n    work: 5\n    behaviour: fixed-rate\n    mix: [{ endpoint: "GET /notifications" }]\n',
    );
    const refused = await cli('simulate', scenario);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      'tollgate: simulate: about 31,536,000,000,000,000 simulated requests, over the cap of 1,000,000,000 (most from `callers[0].rate`: about 31,536,000,000,000,000); lower it, shorten the run, or pass --no-request-cap to go on\n',
    );
    // Its work of 5 ends the run at once.
    const allowed = await cli('simulate', scenario, '--no-request-cap', '--json');
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.stdout).callers[0].admitted).toBe(5);
  });

  it('writes JSON in pieces that join to what JSON.stringify writes', () => {
    const callers = Array.from(
      { length: 8 },
      (_, i): CallerSpec => ({
        name: `a${i}`,
        token: { kind: 'anonymous', ip: `198.51.100.${40 + i}` },
        behaviour: 'polite',
        mix: EVENTS,
      }),
    );
    const report = run(300, callers);
    const pieces = [...jsonChunks(report)];
    expect(pieces.join('')).toBe(JSON.stringify(report, null, 2));
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(JSON.stringify(report, null, 2).length / 4);
  });

  it('a polite client sends nothing while limited, even when a later refusal is answered first (the nightly sync sent 77)', () => {
    // Eight workers with exponential answer times: refusals come back out of order. The hold a
    // limited answer imposes starts when that answer arrives, not at the first refusal's.
    const scenario = readScenario(
      readFileSync('examples/sim/nightly-sync.yaml', 'utf8'),
      'nightly-sync.yaml',
      shippedTables(),
    );
    const [caller] = simulate(scenario).callers;
    expect(Object.keys(caller!.denied).length).toBeGreaterThan(0);
    expect(caller!.sentWhileLimited).toBe(0);
    expect(caller!.admitted).toBe(20_000);
  });

  it('ends the run when the work is done, and admits no more than the work', () => {
    // Eight workers, work 20: no worker starts a request the work does not need.
    const report = simulate({
      seed: 3,
      callers: [
        {
          name: 'w',
          token: { kind: 'fine-grained', user: 'w' },
          behaviour: 'greedy',
          workers: 8,
          work: 20,
          mix: EVENTS,
        },
      ],
    });
    expect(report.callers[0]!.admitted).toBe(20);
    expect(report.callers[0]!.sent).toBe(20);
    // 8 at a time, 50 ms each: 8, 8, 4: done at 0.15 s, and the run ends there.
    expect(report.callers[0]!.workDoneAt).toBe(0.15);
    expect(report.seconds).toBe(0.15);
  });

  it('keeps at most 1,024 buckets per caller, widening them as the run goes', () => {
    // One request a minute for 2,000 minutes, no duration: the series widens to 2-minute buckets.
    const [caller] = simulate({
      seed: 4,
      callers: [
        {
          name: 'slow',
          token: { kind: 'fine-grained', user: 's' },
          behaviour: 'polite',
          rate: 1 / 60,
          work: 2000,
          mix: EVENTS,
        },
      ],
    }).callers;
    expect(caller!.series.bucketSeconds).toBe(120);
    expect(caller!.series.admitted.length).toBeLessThanOrEqual(MAX_BUCKETS);
    expect(caller!.series.admitted.reduce((a, b) => a + b, 0)).toBe(2000);
    for (const gauge of caller!.series.gauges)
      expect(gauge.remaining.length).toBe(caller!.series.admitted.length);
  });
});

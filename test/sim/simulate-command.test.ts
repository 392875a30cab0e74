// `tollgate simulate` on the examples and on bad input.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { run, scratchFiles } from '../support/cli.js';

const file = scratchFiles('tollgate-sim-');

describe('tollgate simulate', () => {
  it('gives byte-identical JSON for the same scenario and seed, and writes the HTML report', async () => {
    const html = file('burst.html', ''); // overwritten by --html
    const first = await run('simulate', 'examples/sim/content-burst.yaml', '--json', '--html', html);
    const second = await run('simulate', 'examples/sim/content-burst.yaml', '--json');
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    expect(first.stdout).toBe(second.stdout);
    const report = JSON.parse(first.stdout);
    expect(report.callers[0]).toMatchObject({ name: 'importer', admitted: 200, sentWhileLimited: 0 });
    expect(report.callers[0].denied.content_per_minute).toBeGreaterThan(0);
    expect(readFileSync(html, 'utf8')).toMatch(/^<!doctype html>[\s\S]*<svg[\s\S]*<\/html>\n$/);
  });

  it('tells the greedy client it sent requests while limited', async () => {
    const { stdout } = await run('simulate', 'examples/sim/greedy-banned.yaml');
    expect(stdout).toMatch(
      /greedy {2}fine-grained, greedy, user:greedy {2}sent [\d,]+, admitted 5,000, .*sent while limited \(the seed warns this can get an integration banned\)/,
    );
  });

  it('shows a progress bar on a terminal for a run over a second, and clears it; nothing when not a terminal', async () => {
    let stderr = '';
    const scenario = file(
      'long.yaml',
      'seed: 5\nduration_seconds: 3600\ncallers:\n  - name: g\n    token: { kind: classic, user: g }\n    workers: 20\n    behaviour: greedy\n    mix: [{ endpoint: "GET /repos/{owner}/{repo}/issues/events" }]\n    latency_ms: 30\n',
    );
    // A clock that moves 50 ms each time it is read: the run is "over a second" however fast this
    // machine is, and the bar is drawn as it would be on a slow one.
    let now = 0;
    const clock = () => (now += 50);
    await runCli(['simulate', scenario], {
      stdout: () => {},
      stderr: (t) => (stderr += t),
      isTty: true,
      clock,
    });
    expect(stderr).toMatch(
      /\rsimulating \[#*\s*\] \d+%, (about \d+ (s|min) left|estimating the time left|done)/,
    );
    expect(stderr.endsWith('\r')).toBe(true);
    expect((await run('simulate', 'examples/sim/content-burst.yaml')).stderr).toBe('');
  });

  it('shows progress with the time left off a terminal when --progress asks, during --recommend too', async () => {
    const { code, stderr } = await run(
      'simulate',
      'examples/sim/nightly-sync.yaml',
      '--recommend',
      '--progress',
    );
    expect(code).toBe(0);
    const lines = stderr.trimEnd().split('\n');
    expect(lines.some((line) => /^simulating \d+%, /.test(line))).toBe(true);
    const planning = lines.filter((line) => line.startsWith('recommending '));
    expect(planning.length).toBeGreaterThan(1);
    for (const line of planning)
      expect(line).toMatch(/^recommending \d+%, (about \d+ (s|min) left|estimating the time left|done)$/);
    expect(planning.at(-1)).toBe('recommending 100%, done');
  });

  it('prints the advice: the pace, the rule that binds, the work done, the windowed plan, and that polite at full speed is sooner', async () => {
    const { stdout } = await run('simulate', 'examples/sim/nightly-sync.yaml', '--recommend');
    expect(stdout).toMatch(
      /\nnightly-sync {2}recommended: [\d.]+ requests\/s with \d+ workers?, bound by primary \(core\): 7,000 requests an hour; work done at [\d,]+ s \(fastest refusal-free steady plan: 10,286 s\); refused nothing when run\n {2}sooner, also refusal-free: 6,667 requests per window at [\d.]+ requests\/s with \d+ workers?, then wait until 3,601 s after the window's first request, 3 windows: work done at [\d,]+ s\n {2}polite at full speed is sooner: work done at [\d,]+ s, after [\d,]+ refusals it waits out as the seed's client rules say\n$/,
    );
    expect(stdout).not.toMatch(/limited for 0 s/);
  });

  it('answers how many installations finish the work within --within, and refuses --within without --recommend', async () => {
    const { stdout } = await run(
      'simulate',
      'examples/sim/nightly-sync.yaml',
      '--recommend',
      '--within',
      '1h',
      '--json',
    );
    const [advice] = JSON.parse(stdout).recommendations;
    expect(advice.howMany).toMatchObject({ unit: 'installations', count: 3, withinSeconds: 3600 });
    const alone = await run('simulate', 'examples/sim/nightly-sync.yaml', '--within', '1h');
    expect(alone).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'tollgate: simulate: `--within` goes with `--recommend`\n',
    });
    const bad = await run('simulate', 'examples/sim/nightly-sync.yaml', '--recommend', '--within', 'soon');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^tollgate: simulate: `--within` is `soon`: expected seconds as a number, or a text such as `90s`/,
    );
  });

  it('summarizes a pool beside its members, in text and JSON', async () => {
    const scenario = file(
      'pool.yaml',
      'seed: 8\ncallers:\n  - name: sync\n    token: { kind: app-installation, installation: 42 }\n    work: 9000\n    workers: 4\n    pool: { installations: 3 }\n    behaviour: polite\n    mix: [{ endpoint: "GET /repos/{owner}/{repo}/issues/events" }]\n',
    );
    const text = await run('simulate', scenario);
    expect(text.stdout).toMatch(
      /\nsync\[1\] {2}app-installation, polite, installation:42-1 {2}sent [\d,]+, admitted 3,000,/,
    );
    expect(text.stdout).toMatch(/\npool sync {2}3 installations, 3 callers: admitted 9,000, .*/);
    const json = JSON.parse((await run('simulate', scenario, '--json')).stdout);
    expect(json.pools).toEqual([
      expect.objectContaining({
        name: 'sync',
        unit: 'installations',
        size: 3,
        callers: ['sync[1]', 'sync[2]', 'sync[3]'],
        admitted: 9000,
      }),
    ]);
  });

  it("runs the pool example 10 minutes in, and counts --within from the job's start", async () => {
    const { stdout } = await run(
      'simulate',
      'examples/sim/installation-pool.yaml',
      '--recommend',
      '--within',
      '1h',
      '--json',
    );
    const report = JSON.parse(stdout);
    expect(report.identities.map((i: { identity: string }) => i.identity)).toEqual([
      'installation:42-1',
      'installation:42-2',
      'installation:42-3',
    ]);
    for (const caller of report.callers) expect(caller.firstRefusalAt ?? 600).toBeGreaterThanOrEqual(600);
    const [advice] = report.recommendations;
    // 2 installations: 10,000 each over 7,000 an hour, 10,000 × 3,600 / 7,000 = 5,143 s at best.
    expect(advice.howMany).toMatchObject({ unit: 'installations', count: 3 });
    expect(advice.howMany.workDoneAt).toBeLessThanOrEqual(3_600);
    expect(advice.howMany.fewerWorkDoneAt).toBeGreaterThan(5_143);
    expect(advice.howMany.fewerWorkDoneAt).toBeLessThan(5_143 * 1.05);
  });

  it('refuses a token fact that does not apply to the kind with one line, exit 2', async () => {
    const scenario = file(
      'ec.yaml',
      'seed: 1\nduration_seconds: 60\ncallers:\n  - name: x\n    token: { kind: classic, user: a, enterprise_cloud: true }\n    behaviour: polite\n    mix: [{ endpoint: "GET /rate_limit" }]\n',
    );
    const { code, stdout, stderr } = await run('simulate', scenario);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /^tollgate: .*ec\.yaml:5:\d+: caller `x`: `enterprise_cloud` does not apply to a `classic` token/,
    );
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('recommends a pace that meets no limit', async () => {
    const { stdout } = await run('simulate', 'examples/sim/content-burst.yaml', '--recommend', '--json');
    const [advice] = JSON.parse(stdout).recommendations;
    expect(advice.rate).toBeGreaterThan(1);
    expect(advice.workers).toBeGreaterThanOrEqual(1);
  });

  it('recommends a rate the caller reaches, even with long latencies', async () => {
    const scenario = file(
      'slow.yaml',
      'seed: 6\ncallers:\n  - name: s\n    token: { kind: classic, user: s }\n    work: 300\n    behaviour: polite\n    latency_ms: { uniform: [900, 1100] }\n    mix: [{ endpoint: "GET /repos/{owner}/{repo}/issues/events" }]\n',
    );
    const { stdout } = await run('simulate', scenario, '--recommend', '--json');
    const [advice] = JSON.parse(stdout).recommendations;
    // With about a second per answer, `workers` requests in flight give about `workers` per second.
    expect(advice.rate).toBeLessThanOrEqual(advice.workers);
  });

  it('names the file, line and column of bad input, with the valid choices', async () => {
    const scenario = file(
      'bad.yaml',
      'seed: 1\nduration_seconds: 60\ncallers:\n  - name: x\n    token: { kind: anonymous }\n    behaviour: eager\n    mix: [{ endpoint: "GET /notificatons" }]\n',
    );
    const { code, stdout, stderr } = await run('simulate', scenario);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('bad.yaml:6:16');
    expect(stderr).toContain('polite, greedy, fixed-rate, octokit');
    const endpoint = file(
      'endpoint.yaml',
      'seed: 1\nduration_seconds: 60\ncallers:\n  - name: x\n    token: { kind: anonymous }\n    behaviour: greedy\n    mix: [{ endpoint: "GET /notificatons" }]\n',
    );
    const unknown = await run('simulate', endpoint);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /endpoint\.yaml:7:\d+: no endpoint `GET \/notificatons` in the table \(did you mean `GET \/notifications`\?\)/,
    );
  });
});

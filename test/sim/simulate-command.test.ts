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
      /greedy {2}fine-grained, greedy {2}sent [\d,]+, admitted 5,000, .*sent while limited \(the seed warns this can get an integration banned\)/,
    );
  });

  it('shows a progress bar on a terminal for a run over a second, and clears it; nothing when not a terminal', async () => {
    let stderr = '';
    const scenario = file(
      'long.yaml',
      'seed: 5\nduration_seconds: 3600\ncallers:\n  - name: g\n    token: { kind: classic, user: g }\n    workers: 20\n    behaviour: greedy\n    mix: [{ endpoint: "GET /repos/{owner}/{repo}/issues/events" }]\n    latency_ms: 30\n',
    );
    await runCli(['simulate', scenario], { stdout: () => {}, stderr: (t) => (stderr += t), isTty: true });
    expect(stderr).toMatch(/\rsimulating \[#*\s*\] \d+%/);
    expect(stderr.endsWith('\r')).toBe(true);
    expect((await run('simulate', scenario)).stderr).toBe('');
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

// Never pass what was not judged: calls outside the table, unresolved and GraphQL calls fail the
// run by default, `--allow-unjudged` makes them a warning, the grant says it is partial, and
// `--write-overlay` writes the skeleton of what the table lacks.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createPolicy, shippedTables } from 'tollgate';
import { loadTables } from 'tollgate/tables';
import { describe, expect, it } from 'vitest';
import { checkCalls } from '../../src/check/check-calls.js';
import { run, scratchFiles } from '../support/cli.js';

const file = scratchFiles('tollgate-unjudged-');
const origin = { file: 'bot.ts', line: 3, column: 7 };

describe('calls that were not judged', () => {
  it('an action whose calls are all outside the table is not sufficient, and exits 1 with the list', async () => {
    // The shape of the reported defect: four calls the table lacks used to pass with `contents=read`.
    const calls = file(
      'outside.txt',
      [
        'GET /repos/{owner}/{repo}/pulls',
        'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews',
        'GET /repos/{owner}/{repo}/pulls/{pull_number}/files',
        'GET /repos/{owner}/{repo}/pulls/{pull_number}/comments',
      ].join('\n'),
    );
    const { code, stdout } = await run('check', calls, '--kind', 'fine-grained', '--json');
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.sufficient).toBe(false);
    expect(report.passed).toBe(false);
    expect(report.partial).toBe(true);
    expect(report.counts.unjudged).toBe(4);
    expect(report.jobs[0].leftOut).toHaveLength(4);
    expect(report.calls[0].note).toMatch(
      /^not judged: `GET \/repos\/\{owner\}\/\{repo\}\/pulls` is not in the table/,
    );
  });

  // Found by a new user's trial: a folder holding no code (its calls.yaml and a broken .json are
  // not read in a folder) printed `0 calls, 0 allowed` and exited 0, judging nothing.
  it('fails a run whose sources hold no call at all, unless --allow-unjudged', async () => {
    const inFolder = file('nothing/calls.yaml', '- GET /repos/{owner}/{repo}/issues/events\n');
    file('nothing/broken.json', '{ "a": ');
    file('nothing/tool.py', 'print(1)\n');
    const folder = dirname(inFolder);
    const refused = await run('check', folder, '--kind', 'fine-grained', '--json');
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).passed).toBe(false);
    expect(refused.stderr).toBe(
      `tollgate: check: found no call to judge in \`${folder}\` (a folder is searched for code, workflows and action.yml files; name calls files and OpenAPI documents directly); \`--allow-unjudged\` lets this pass\n`,
    );
    const allowed = await run('check', folder, '--kind', 'fine-grained', '--allow-unjudged');
    expect([allowed.code, allowed.stderr]).toEqual([0, '']);
    // Named directly, the calls file is read and judged.
    const named = await run('check', inFolder, '--kind', 'fine-grained', '--json');
    expect([named.code, JSON.parse(named.stdout).counts.allowed]).toEqual([0, 1]);
    // Per source: one with calls does not carry one without (found by a review).
    const empty = dirname(file('elsewhere/tool.py', 'print(1)\n'));
    const both = await run('check', inFolder, empty, '--kind', 'fine-grained');
    expect(both.code).toBe(1);
    expect(both.stderr).toContain(`found no call to judge in \`${empty}\` (`);
    // A workflow with no call is a job judged as a job; judged with --token, it holds no call.
    const quiet = file(
      'repo/.github/workflows/quiet.yml',
      'on: push\njobs:\n  build:\n    runs-on: x\n    steps:\n      - run: echo hi\n',
    );
    expect((await run('check', quiet)).code).toBe(0);
    const token = file(
      'token.yaml',
      'kind: fine-grained\npermissions: { issues: read }\nrepositories: all\n',
    );
    const withToken = await run('check', quiet, '--token', token);
    expect(withToken.code).toBe(1);
    expect(withToken.stderr).toContain(`found no call to judge in \`${quiet}\``);
  });

  it('--allow-unjudged turns them into a warning, and `sufficient` stays false', async () => {
    const calls = file(
      'mixed.txt',
      'GET /repos/{owner}/{repo}/issues/events\nGET /repos/{owner}/{repo}/pulls\n',
    );
    const text = await run('check', calls, '--kind', 'fine-grained', '--allow-unjudged');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/grant \(partial: leaves out 1 call not judged\): issues=read/);
    expect(text.stdout).toMatch(/^warning: 1 call was not judged \(allowed by --allow-unjudged\)$/m);
    const json = JSON.parse(
      (await run('check', calls, '--kind', 'fine-grained', '--allow-unjudged', '--json')).stdout,
    );
    expect([json.sufficient, json.passed]).toEqual([false, true]);
  });

  it('lists GraphQL calls with their operation and point cost, never judged', () => {
    const report = checkCalls(
      [
        {
          method: 'POST',
          path: '/graphql',
          origin,
          resolved: true,
          graphql: { operation: 'query', cost: 1 },
        },
        {
          method: 'POST',
          path: '/graphql',
          origin,
          resolved: true,
          graphql: { operation: 'mutation', cost: 5 },
        },
      ],
      { policy: createPolicy(shippedTables()), kind: 'app-installation' },
    );
    expect(report.results.map((r) => [r.verdict, r.note])).toEqual([
      ['unjudged', 'not judged: the tables hold no GraphQL permissions (query, 1 point)'],
      ['unjudged', 'not judged: the tables hold no GraphQL permissions (mutation, 5 points)'],
    ]);
    expect(report.sufficient).toBe(false);
    expect(report.passed).toBe(false);
  });

  it('lists an unresolved call with its reason and the candidates of a computed method name', () => {
    const report = checkCalls(
      [
        {
          method: 'GET',
          path: '',
          origin,
          resolved: false,
          via: 'github.repos[methodName]',
          reason: 'the method name is computed',
          candidates: ['GET /repos/{owner}/{repo}', 'PATCH /repos/{owner}/{repo}'],
        },
      ],
      { policy: createPolicy(shippedTables()), kind: 'fine-grained', allowUnjudged: true },
    );
    expect(report.results[0]?.note).toBe(
      'not resolved: the method name is computed; candidates: GET /repos/{owner}/{repo}, PATCH /repos/{owner}/{repo}',
    );
    expect([report.sufficient, report.passed, report.leftOut.length]).toEqual([false, true, 1]);
  });

  it('keeps uncertain calls as they were: a warning, exit 0 unless --strict', async () => {
    const calls = file('starred.txt', 'GET /repos/{owner}/{repo}/actions/variables\n');
    expect((await run('check', calls, '--kind', 'fine-grained')).code).toBe(0);
    expect((await run('check', calls, '--kind', 'fine-grained', '--strict')).code).toBe(1);
  });
});

describe('--write-overlay', () => {
  it('writes a schema-valid skeleton for every endpoint the table lacks, which then judges those calls', async () => {
    const calls = file(
      'needs.txt',
      'GET /repos/{owner}/{repo}/pulls\nGET /repos/{owner}/{repo}/pulls\nPOST /repos/{owner}/{repo}/pulls\nGET /repos/{owner}/{repo}/issues/events\n',
    );
    const overlay = file('out/overlay.yaml', '');
    const { stderr } = await run('check', calls, '--kind', 'fine-grained', '--write-overlay', overlay);
    expect(stderr).toMatch(/wrote 2 endpoints to fill to .*overlay\.yaml/);
    const text = readFileSync(overlay, 'utf8');
    expect(text.match(/^ {2}"(GET|POST) [^"]+":$/gm)).toEqual([
      '  "GET /repos/{owner}/{repo}/pulls":',
      '  "POST /repos/{owner}/{repo}/pulls":',
    ]);
    // Valid as written (schema and compile), and an unfilled skeleton refuses rather than passes.
    expect(loadTables([overlay]).endpoints.length).toBe(shippedTables().endpoints.length + 2);
    const unfilled = await run('check', calls, '--kind', 'fine-grained', '--overlay', overlay);
    expect(unfilled.code).toBe(1);
    expect(unfilled.stdout).not.toMatch(/not judged/);
    // Filled in, the calls are judged.
    const filled = file(
      'filled.yaml',
      text.replaceAll('fine_grained: []', 'fine_grained: [{ pull_requests: write }]'),
    );
    const judged = await run('check', calls, '--kind', 'fine-grained', '--overlay', filled, '--json');
    expect(JSON.parse(judged.stdout).grant.permissions).toEqual({ issues: 'read', pull_requests: 'write' });
  });
});

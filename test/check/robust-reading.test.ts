// Robust on any input: one unreadable file is reported and the rest still judged; JSON read with
// the JSON parser; the service's own OpenAPI description read whole; control characters from
// input never reach the terminal raw; one SARIF run with relative URIs and fingerprints.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { run, scratchFiles } from '../support/cli.js';

const file = scratchFiles('tollgate-robust-');

describe('reading sources', () => {
  it('reports one unreadable file with its place, and still judges the rest of the folder', async () => {
    const good = file(
      'mixed/.service/workflows/good.yml',
      'on: push\npermissions: { issues: read }\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: actions/github-script@v7\n        with:\n          script: await github.rest.issues.listEventsForRepo({ owner, repo });\n',
    );
    // Two problems in one file (a new user's trial counted them as two sources).
    file('mixed/.service/workflows/broken.yml', 'on: push\non: pull_request\njobs:\n  a: [unclosed\n');
    const folder = good.replace(/\.service.*$/, '');
    const { code, stdout, stderr } = await run('check', folder);
    expect(code).toBe(2);
    expect(stdout).toMatch(/good\.yml:9:\d+\s+GET \/repos\/\{owner\}\/\{repo\}\/issues\/events\s+allowed/);
    expect(stderr.match(/^tollgate: .*broken\.yml:\d+:\d+: invalid YAML/gm)?.length).toBeGreaterThan(1);
    expect(stderr).toMatch(/^tollgate: 1 source could not be read; the others were judged$/m);
  });

  // A new user's trial: `check .` at a JavaScript action's root exited 2 on its action.yml
  // (`runs.using: node20`), whose code the same run was scanning.
  it('passes over a JavaScript action’s action.yml in a folder, and refuses it named alone', async () => {
    const action = file('js-action/action.yml', 'name: x\nruns:\n  using: node20\n  main: dist/index.js\n');
    file(
      'js-action/src/main.ts',
      "import * as github from '@actions/github';\nconst octokit = github.getOctokit('t');\nawait octokit.rest.issues.listEventsForRepo({ owner: 'o', repo: 'r' });\n",
    );
    const folder = action.replace(/action\.yml$/, '');
    const scanned = await run('check', folder, '--kind', 'fine-grained');
    expect([scanned.code, scanned.stderr]).toEqual([0, '']);
    expect(scanned.stdout).toMatch(
      /main\.ts:3:\d+\s+GET \/repos\/\{owner\}\/\{repo\}\/issues\/events\s+allowed/,
    );
    const alone = await run('check', action, '--kind', 'fine-grained');
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('the action runs `node20`, not `composite`: its calls are in its code');
  });

  it('reports a broken `.json` calls file as invalid JSON at its line and column, not as invalid YAML', async () => {
    const broken = file('calls.json', '[\n  "GET /notifications",\n  "PUT /notifications",\n]\n');
    const { code, stderr } = await run('check', broken, '--kind', 'classic');
    expect(code).toBe(2);
    expect(stderr).toMatch(/calls\.json:4:1: invalid JSON: unexpected `]`$/m);
    expect(stderr).not.toMatch(/YAML/);
  });

  it('places each call of a JSON calls file at its line', async () => {
    const calls = file(
      'ok.json',
      '{\n  "calls": [\n    "GET /notifications",\n    { "method": "PUT", "path": "/notifications" }\n  ]\n}\n',
    );
    const report = JSON.parse((await run('check', calls, '--kind', 'classic', '--json')).stdout);
    expect(report.calls.map((c: { line: number; column: number }) => [c.line, c.column])).toEqual([
      [3, 5],
      [4, 5],
    ]);
  });

  it('reads the service’s own OpenAPI description whole, and does not pass the operations the table lacks', async () => {
    const api = 'node_modules/@octokit/openapi/generated/api.github.com.json';
    const { code, stdout } = await run('check', api, '--kind', 'fine-grained', '--json');
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    const text = JSON.parse(readFileSync(api, 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(text.paths).reduce(
      (n, item) =>
        n +
        Object.keys(item).filter((k) =>
          ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'].includes(k),
        ).length,
      0,
    );
    expect(report.calls).toHaveLength(operations);
    expect(report.counts.unjudged).toBeGreaterThan(0);
    expect(report.sufficient).toBe(false);
    // Each operation at the line of its method key.
    const lines = readFileSync(api, 'utf8').split('\n');
    const events = report.calls.find(
      (c: { path: string }) => c.path === '/repos/{owner}/{repo}/issues/events',
    );
    expect(lines[events.line - 1]!.slice(events.column - 1)).toMatch(/^"get":/);
  });
});

describe('output from input', () => {
  it('escapes control characters of a token file and of file names in error lines', async () => {
    const token = file('evil.yaml', 'kind: "fine\x1b[31mgrained"\n');
    const { code, stderr } = await run('check', 'examples/ci/calls.yaml', '--token', token);
    expect(code).toBe(2);
    expect(stderr).not.toContain('\x1b');
    expect(stderr).toContain('\\x1b[31m');
    const missing = await run('check', 'no\x1b]0;pwned\x07such.ts', '--kind', 'classic');
    expect(missing.stderr).not.toMatch(/[\x07\x1b]/);
    expect(missing.stderr).toContain('no\\x1b]0;pwned\\x07such.ts');
  });

  it('escapes them in every command’s error lines', async () => {
    const bad = file('bad\x1b[2Jname.yaml', 'kind: classic\nscopes: [\x1b[31mrepo]\n');
    for (const args of [
      ['\x1b[2Jexplain'],
      ['validate', bad],
      ['explain', 'GET', '/notifications', '--token', bad],
      ['limits', '--kind', '\x1b[31mclassic'],
      ['endpoints', '\x1b[31mextra'],
      ['simulate', bad],
    ]) {
      const { code, stderr } = await run(...args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr, args.join(' ')).toContain('\\x1b');
      expect(stderr, args.join(' ')).not.toContain('\x1b');
    }
  });
});

describe('SARIF', () => {
  it('is one run, validates against the official schema, with relative URIs and fingerprints that survive a moved line', async () => {
    const schema = JSON.parse(readFileSync('test/fixtures/sarif-schema-2.1.0.json', 'utf8'));
    const validate = new Ajv2020({ strict: false, validateFormats: false, allErrors: true }).compile(schema);
    const lines = [
      'on: push',
      'permissions: { issues: read }',
      'jobs:',
      '  one:',
      '    runs-on: x',
      '    steps:',
      '      - uses: actions/github-script@v7',
      '        with:',
      "          script: await github.request('GET /repos/{owner}/{repo}/pulls');",
      '  two:',
      '    runs-on: x',
      '    steps:',
      '      - uses: actions/github-script@v7',
      '        with:',
      "          script: await github.request('GET /orgs/{org}/actions/variables');",
    ];
    // The same file before and after a commit that moves every line; an absolute path, as a CI step may give.
    const path = resolve(file('s1/.service/workflows/ci.yml', `${lines.join('\n')}\n`));
    const a = await run('check', path, '--format', 'sarif');
    file('s1/.service/workflows/ci.yml', `# a comment moves every line\n${lines.join('\n')}\n`);
    const b = await run('check', path, '--format', 'sarif');
    const logA = JSON.parse(a.stdout);
    const logB = JSON.parse(b.stdout);
    expect(validate(logA), JSON.stringify(validate.errors)).toBe(true);
    expect(logA.runs).toHaveLength(1);
    const results = logA.runs[0].results;
    expect(results.map((r: { properties: { job: string } }) => r.properties.job)).toEqual(['one', 'two']);
    for (const result of results) {
      const { uri } = result.locations[0].physicalLocation.artifactLocation;
      expect(uri).not.toMatch(/^\/|^[A-Za-z]:|file:/);
      expect(uri).toMatch(/s1\/\.service\/workflows\/ci\.yml$/);
    }
    expect(results[0].locations[0].physicalLocation.region.startLine).toBe(9);
    expect(logB.runs[0].results[0].locations[0].physicalLocation.region.startLine).toBe(10);
    // The same call in the same file and job keeps its fingerprint when its line moves.
    expect(logB.runs[0].results.map((r: { partialFingerprints: object }) => r.partialFingerprints)).toEqual(
      results.map((r: { partialFingerprints: object }) => r.partialFingerprints),
    );
  });
});

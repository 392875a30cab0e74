// Regression tests for a new user's trial: `.json` token, scenario and limits files (and the files
// `validate` is given) were parsed as YAML, so a JSON syntax error read as YAML's, YAML-only syntax
// passed, and a large valid JSON file was refused by YAML's node bound. They are read with the JSON
// parser now, with positions as deep as their problems are reported.
import { describe, expect, it } from 'vitest';
import { run, scratchFiles } from '../support/cli.js';

const file = scratchFiles('tollgate-json-');

const scenario = (token: string) =>
  `{
  "seed": 1,
  "duration_seconds": 60,
  "callers": [
    {
      "name": "poller",
      "token": ${token},
      "behaviour": "polite",
      "mix": [{ "endpoint": "GET /notifications" }]
    }
  ]
}
`;

function expectOneLine(result: { code: number; stdout: string; stderr: string }, line: string) {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toBe(`tollgate: ${line}\n`);
}

describe('.json files are read with the JSON parser', () => {
  it('reports a bad key of a .json token past YAML’s node bound at its line and column (it was refused as too large for YAML)', async () => {
    const repositories = Array.from({ length: 260_000 }, (_, i) => `"acme/r${i}"`).join(',');
    const token = file(
      'big-token.json',
      `{\n  "kind": "fine-grained",\n  "permisions": { "issues": "read" },\n  "repositories": [${repositories}]\n}\n`,
    );
    const result = await run('explain', 'GET', '/notifications', '--token', token);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^tollgate: ${token}:3:3: unknown field \`permisions\` in document \\(did you mean \`permissions\`\\?\\)`,
      ),
    );
    expect(result.stderr).not.toMatch(/YAML/);
  });

  it('reports a syntax error of a .json scenario as invalid JSON at its line and column (it read as invalid YAML)', async () => {
    const broken = file('broken.json', scenario('{ "kind": "anonymous", "ip": "198.51.100.7", }'));
    expectOneLine(
      await run('simulate', broken),
      `${broken}:7:61: invalid JSON: expected double-quoted property name`,
    );
  });

  it('refuses YAML-only syntax in a .json token, limits file and validated file (YAML accepted it)', async () => {
    const token = file('yaml-token.json', '{ kind: classic, scopes: [repo] }\n');
    expectOneLine(
      await run('explain', 'GET', '/notifications', '--token', token),
      `${token}:1:3: invalid JSON: expected property name or '}'`,
    );
    const comment = file('commented-token.json', '# the CI token\n{ "kind": "anonymous" }\n');
    const validated = await run('validate', comment);
    expect(validated.code).toBe(2);
    expect(validated.stderr).toBe(`${comment}:1:1: invalid JSON: unexpected \`#\`\n`);
    const limits = file('limits.json', '{\n  "secondary": { "content": { "per_minute": 40, } }\n}\n');
    const ok = file('ok.json', scenario('{ "kind": "anonymous", "ip": "198.51.100.7" }'));
    expectOneLine(
      await run('simulate', ok, '--limits', limits),
      `${limits}:2:49: invalid JSON: expected double-quoted property name`,
    );
  });

  it('refuses a key given twice in one object of a .json token, as YAML refuses it (JSON.parse kept the last)', async () => {
    const token = file('twice.json', '{\n  "kind": "classic",\n  "kind": "fine-grained"\n}\n');
    expectOneLine(
      await run('explain', 'GET', '/notifications', '--token', token),
      `${token}:3:3: invalid JSON: key \`kind\` given twice in one object (give it once)`,
    );
  });

  it('places a problem of an inline token five levels down a .json scenario (`callers.0.token.scopes.1`)', async () => {
    const deep = file(
      'deep.json',
      scenario('{\n        "kind": "classic",\n        "scopes": ["repo", "notification"]\n      }'),
    );
    const result = await run('simulate', deep);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^tollgate: ${deep}:9:28: unknown scope \`notification\` \\(did you mean \`notifications\`\\?\\)`,
      ),
    );
  });

  it('validates a .json token and a .json limits table, and reads a .json scenario with a .json token file', async () => {
    const token = file(
      'ci.json',
      '{ "kind": "fine-grained", "user": "ci", "permissions": { "issues": "read" } }\n',
    );
    const limits = file('slow.json', '{ "secondary": { "content": { "per_minute": 40 } } }\n');
    const validated = await run('validate', token);
    expect(validated.stderr).toBe('');
    expect(validated.stdout).toBe(`${token}: ok (token)\n`);
    const byFile = file('by-file.json', scenario('"ci.json"'));
    const simulated = await run('simulate', byFile, '--limits', limits, '--json');
    expect(simulated.stderr).toBe('');
    expect(simulated.code).toBe(0);
  });
});

describe('a limits file with a syntax error', () => {
  it('is reported at its line and column (it said only that a limits overlay is a mapping)', async () => {
    const limits = file('broken-limits.yaml', 'secondary:\n  content: { per_minute: 40\n');
    const ok = file('for-limits.json', scenario('{ "kind": "anonymous", "ip": "198.51.100.7" }'));
    const result = await run('simulate', ok, '--limits', limits);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^tollgate: ${limits}:\\d+:\\d+: invalid YAML: `));
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});

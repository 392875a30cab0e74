// Every example a newcomer is shown (README `$ tollgate ...` lines, each command's `--help`
// example, the hints in usage errors) runs, and says what the README says it says.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands.js';
import { runCli } from '../../src/cli/main.js';

const root = join(import.meta.dirname, '..', '..');

async function cli(argv: readonly string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    isTty: false,
  });
  return { code, stdout, stderr, output: stdout + stderr };
}

/**
 * `tollgate a b c` as argv, relative paths taken from the project root. The README's examples run
 * from an installed package: `node_modules/tollgate/` is this project's root (the packed-tarball
 * test runs them from a real install).
 */
const INSTALLED = /node_modules\/tollgate\//g;
const argvOf = (line: string) =>
  line
    .replace(INSTALLED, '')
    .replace(/^\$?\s*tollgate\s+/, '')
    .trim()
    .split(/\s+/);

/** README examples: a `$ tollgate ...` line and the output lines shown under it. */
function readmeExamples(): { line: string; shown: string[] }[] {
  const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n');
  const examples: { line: string; shown: string[] }[] = [];
  lines.forEach((line, i) => {
    if (!line.startsWith('$ tollgate ')) return;
    const shown: string[] = [];
    for (let j = i + 1; j < lines.length && !lines[j]!.startsWith('```') && lines[j] !== ''; j++)
      shown.push(lines[j]!);
    examples.push({ line, shown });
  });
  return examples;
}

/** What a shown line promises: its text up to an elision (`...`, `(...)`), spaces folded. */
const promised = (shown: string) =>
  shown
    .split(/\s*\(?\.\.\.\)?/)[0]!
    .replace(/\s+/g, ' ')
    .trim();

/** An example that answers "no such endpoint" or "bad input" shows nothing a reader can use. */
function expectUseful(result: Awaited<ReturnType<typeof cli>>, example: string): void {
  expect(result.code, `${example}\n${result.output}`).not.toBe(2);
  expect(result.output, example).not.toContain('unknown_endpoint');
}

describe('examples a newcomer is shown', () => {
  const examples = readmeExamples();

  it('finds the README examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(2);
  });

  for (const { line, shown } of examples) {
    it(`README: ${line}`, async () => {
      process.chdir(root);
      const result = await cli(argvOf(line));
      // An example that shows an error line is meant to fail as bad input.
      if (shown[0]?.startsWith('tollgate:')) expect(result.code).toBe(2);
      else expectUseful(result, line);
      const folded = result.output.replace(/\s+/g, ' ');
      for (const text of shown.map((s) => promised(s.replace(INSTALLED, ''))).filter((t) => t !== ''))
        expect(folded, line).toContain(text);
    });
  }

  for (const name of Object.keys(commands)) {
    it(`\`tollgate ${name} --help\` lists its options and an example that works`, async () => {
      process.chdir(root);
      const help = await cli([name, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^usage: tollgate /);
      expect(help.stdout).toMatch(/--\w/);
      const example = /example:\n\s+(tollgate .+)/.exec(help.stdout)?.[1];
      expect(example, `${name} --help shows no example`).toBeDefined();
      expectUseful(await cli(argvOf(example!)), example!);
    });
  }

  it('the top-level usage example works', async () => {
    const help = await cli(['--help']);
    const example = /example:\n\s+(tollgate .+)/.exec(help.stdout)?.[1];
    expect(example).toBeDefined();
    expectUseful(await cli(argvOf(example!)), example!);
  });

  it('the example in the explain usage error works', async () => {
    const error = await cli(['explain']);
    expect(error.code).toBe(2);
    const example = /e\.g\. `(tollgate [^`]+)`/.exec(error.stderr)?.[1];
    expect(example).toBeDefined();
    expectUseful(await cli(argvOf(example!)), example!);
  });
});

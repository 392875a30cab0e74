// The real-code corpus is well-formed: every project has its licence, its source note and an
// expectations file that loads strictly, every counted call points at a line of a copied file that
// holds the call's text, and the corpus covers every kind of project issue 19 names.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchFiles } from '../support/cli.js';
import { CORPUS_ROOT, loadCorpus, loadCorpusProject } from '../support/corpus.js';

const corpus = loadCorpus();
const file = scratchFiles('tollgate-corpus-');

/** Every file under `dir`, dot folders included. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

describe('the real-code corpus', () => {
  it('holds at least ten projects, of every kind the issue names, with a composite action among them', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(10);
    expect(new Set(corpus.map((project) => project.projectKind))).toEqual(
      new Set(['javascript-action', 'typescript-action', 'probot-app', 'library', 'workflows']),
    );
    const composites = filesUnder(CORPUS_ROOT).filter(
      (path) => path.endsWith('action.yml') && /using: composite/.test(readFileSync(path, 'utf8')),
    );
    expect(composites.length).toBeGreaterThanOrEqual(1);
  });

  it('is listed project by project in its README, with the hand counts', () => {
    const readme = readFileSync(join(CORPUS_ROOT, 'README.md'), 'utf8');
    for (const project of corpus) {
      const count = (kind: string) => project.calls.filter((call) => call.kind === kind).length;
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${project.project}\` |`));
      expect(row, `README lists ${project.project}`).toBeDefined();
      const cells = row!.split('|').map((cell) => cell.trim());
      expect(cells.slice(4, 7), `${project.project}: REST, GraphQL, unresolvable`).toEqual(
        [count('rest'), count('graphql'), count('unresolvable')].map(String),
      );
    }
  });

  it('stays under 3 MB', () => {
    const bytes = filesUnder(CORPUS_ROOT).reduce((sum, path) => sum + statSync(path).size, 0);
    expect(bytes).toBeLessThan(3 * 1024 * 1024);
  });

  it('counts REST calls, GraphQL calls (queries and mutations) and `gh api` steps', () => {
    const calls = corpus.flatMap((project) => project.calls);
    expect(calls.filter((call) => call.kind === 'rest').length).toBeGreaterThanOrEqual(60);
    const operations = new Set(calls.filter((call) => call.kind === 'graphql').map((call) => call.operation));
    expect(operations).toEqual(new Set(['query', 'mutation', 'unknown']));
    expect(calls.some((call) => call.style === 'gh-api')).toBe(true);
  });

  describe.each(corpus.map((project) => [project.id, project] as const))('%s', (_id, project) => {
    it('has its licence, permissive, and a SOURCE.md naming the repository and the commit of each file', () => {
      const licence = readFileSync(join(project.dir, 'LICENSE'), 'utf8');
      expect(licence).toMatch(/MIT License|ISC License|Apache License|BSD|Permission is hereby granted/);
      const source = readFileSync(join(project.dir, 'SOURCE.md'), 'utf8');
      expect(source).toContain(`\`${project.project}\``);
      for (const f of project.callFiles) {
        expect(source, `SOURCE.md names ${f}`).toMatch(
          new RegExp(`\`${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\` at \`[0-9a-f]{40}\``),
        );
      }
    });

    it('names a folder that matches its repository', () => {
      expect(project.id).toBe(project.project.replace('/', '__'));
    });

    it('points every counted call at a line of a copied file that holds the call', () => {
      for (const call of project.calls) {
        const path = join(project.dir, call.file);
        expect(existsSync(path), `${call.file} exists`).toBe(true);
        const lines = readFileSync(path, 'utf8').split('\n');
        expect(call.line, `${call.file}:${call.line} is inside the file`).toBeLessThanOrEqual(lines.length);
        expect(lines[call.line - 1], `${call.file}:${call.line}`).toContain(call.match);
        for (const line of call.alsoAt) {
          expect(lines[line - 1], `${call.file}:${line} continues the call`).toMatch(/\.request\(|paginate/);
        }
        if (call.definedAt !== undefined) {
          expect(lines[call.definedAt - 1], `${call.file}:${call.definedAt} builds the options`).toMatch(
            /endpoint/,
          );
        }
      }
    });

    it('counts each call site once', () => {
      const places = project.calls.map((call) => `${call.file}:${call.line}`);
      expect(new Set(places).size).toBe(places.length);
    });

    it('points every uncounted `gh` step at a line that holds it', () => {
      for (const step of project.notCounted) {
        const lines = readFileSync(join(project.dir, step.file), 'utf8').split('\n');
        for (const line of step.lines) expect(lines[line - 1], `${step.file}:${line}`).toContain(step.text);
      }
    });
  });
});

describe('the corpus loader', () => {
  const project = (yaml: string) => {
    const dir = file('p__q/expectations.yaml', yaml).replace(/[\\/]p__q[\\/]expectations\.yaml$/, '');
    return () => loadCorpusProject('p__q', dir);
  };
  const head =
    'project: p/q\nproject_kind: library\ntoken_kind: classic\ndocumented_permissions: none documented\n';
  const oneCall = `calls:\n  - { file: a.js, line: 1, match: x, style: rest, kind: rest, route: 'GET /a' }\n`;
  const computed = "  computed:\n    - { job: null, token: classic, grant: 'grant: repo' }\n";
  const grant = `grant:\n${computed}  matches_documented: false\n  differences: [nothing documented]\n`;

  it('refuses an unknown field, naming it and the valid ones', () => {
    expect(
      project(
        `${head}calls:\n  - { file: a.js, line: 1, match: x, style: rest, kind: rest, route: 'GET /a', lin: 2 }\n`,
      ),
    ).toThrow(/p__q\/expectations\.yaml calls\[0\]: unknown field `lin` \(valid: file, line,/);
  });

  it('refuses a route in colon form or without a method', () => {
    expect(
      project(
        `${head}calls:\n  - { file: a.js, line: 1, match: x, style: rest, kind: rest, route: 'GET /orgs/:org' }\n`,
      ),
    ).toThrow(/`GET \/orgs\/:org` is not `METHOD \/path` with \{param\} names/);
    expect(
      project(
        `${head}calls:\n  - { file: a.js, line: 1, match: x, style: rest, kind: rest, route: '/repos' }\n`,
      ),
    ).toThrow(/is not `METHOD \/path`/);
  });

  it('asks a GraphQL call for its operation and an unresolvable one for its reason', () => {
    expect(
      project(`${head}calls:\n  - { file: a.js, line: 1, match: x, style: graphql, kind: graphql }\n`),
    ).toThrow(/a graphql call needs `operation`/);
    expect(
      project(`${head}calls:\n  - { file: a.js, line: 1, match: x, style: c, kind: unresolvable }\n`),
    ).toThrow(/an unresolvable call needs `reason`/);
  });

  it('refuses a line that is not a 1-based number and a kind outside the list', () => {
    expect(
      project(
        `${head}calls:\n  - { file: a.js, line: 0, match: x, style: rest, kind: rest, route: 'GET /a' }\n`,
      ),
    ).toThrow(/`0` is not a 1-based line number/);
    expect(
      project(`${head}calls:\n  - { file: a.js, line: 1, match: x, style: rest, kind: soap }\n`),
    ).toThrow(/`soap` is not one of rest, graphql, unresolvable/);
  });

  it('reads a conditional route as both of its routes', () => {
    const loaded = project(
      `${head}calls:\n  - { file: a.js, line: 1, match: x, style: computed, kind: rest, routes: ['GET /a', 'POST /a'], accept_unresolved: true }\n${grant}`,
    )();
    expect(loaded.calls[0]).toMatchObject({ routes: ['GET /a', 'POST /a'], acceptUnresolved: true });
    expect(loaded.documentedPermissions).toBe('none');
  });

  it('reads the grant check computes, and refuses one without it or with a match that contradicts its differences', () => {
    const loaded = project(`${head}${oneCall}${grant}`)();
    expect(loaded.grant).toEqual({
      computed: [{ job: null, token: 'classic', grant: 'grant: repo' }],
      matchesDocumented: false,
      differences: ['nothing documented'],
    });
    expect(project(`${head}${oneCall}`)).toThrow(/p__q\/expectations\.yaml grant: `grant` is missing/);
    expect(
      project(`${head}${oneCall}grant:\n${computed}  matches_documented: true\n  differences: [a reason]\n`),
    ).toThrow(/a grant matches what is documented exactly when it lists no difference/);
    expect(
      project(`${head}${oneCall}grant:\n${computed}  matches_documented: false\n  differences: []\n`),
    ).toThrow(/a grant matches what is documented exactly when it lists no difference/);
    expect(project(`${head}${oneCall}grant:\n  computed: []\n  matches_documented: true\n`)).toThrow(
      /grant\.computed: expected a non-empty list/,
    );
    expect(
      project(
        `${head}${oneCall}grant:\n  computed:\n    - { job: null, token: classic, grant: x, scopes: [] }\n  matches_documented: true\n`,
      ),
    ).toThrow(/computed\[0\]: unknown field `scopes` \(valid: job, token, grant, block\)/);
  });
});

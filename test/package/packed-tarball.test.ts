// The package as a user receives it: `npm pack`, installed into an empty project outside the
// repository, used through its symlinked bin, from ESM, CommonJS and TypeScript.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/build-once.js';
import { writeConsumerProject, writeReadmeProject } from '../support/consumer-projects.js';
import {
  codeSubpaths,
  installPackedConsumer,
  manifest,
  type PackedConsumer,
} from '../support/packed-consumer.js';
import {
  cliRuns,
  curlLines,
  readmeBlocks,
  SERVER_SETUPS,
  serverSetup,
  simulateRuns,
} from '../support/readme.js';
import { startServer, statusOf } from '../support/run-server.js';

const tsc = join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc');

let installed: PackedConsumer;
let consumer: string;
let packed: PackedConsumer['packed'];

function run(command: string, args: readonly string[], cwd = consumer) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  installed = installPackedConsumer();
  consumer = installed.consumer;
  packed = installed.packed;
}, 300_000);

afterAll(() => {
  if (installed) rmSync(installed.work, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('holds only dist/, data/, examples/, README.md, LICENSE and package.json', () => {
    const paths = packed.files.map((file) => file.path);
    const stray = paths.filter(
      (path) =>
        !/^(dist|data|examples)\//.test(path) && !['README.md', 'LICENSE', 'package.json'].includes(path),
    );
    expect(stray).toEqual([]);
    expect(paths).toContain('LICENSE');
    // Every `examples/...` path the README names is in the package.
    const named = [
      ...readFileSync(join(projectRoot, 'README.md'), 'utf8').matchAll(/\bexamples\/[\w./-]*\w(?![-*\w])/g),
    ].map((m) => m[0]);
    expect(named.length).toBeGreaterThan(5);
    for (const path of new Set(named))
      expect(existsSync(join(consumer, 'node_modules', 'tollgate', path)), path).toBe(true);
    expect(paths.filter((path) => /\.(test|spec)\.|\.map$|^src\//.test(path))).toEqual([]);
    // A source map comment would point to files the package does not ship.
    for (const path of paths.filter((p) => p.endsWith('.js'))) {
      const text = readFileSync(join(consumer, 'node_modules', 'tollgate', path), 'utf8');
      expect(text, path).not.toMatch(/sourceMappingURL=/);
    }
    console.log(
      `tarball ${packed.filename}: ${paths.length} files, ${(packed.size / 1024).toFixed(0)} KiB packed, ${(packed.unpackedSize / 1024).toFixed(0)} KiB unpacked; node_modules after installing it alone: ${installed.installedKiB} KiB`,
    );
  });

  it('runs `tollgate --help` and `--version` through the symlinked bin and npx', () => {
    for (const [command, args] of [
      [join(consumer, 'node_modules', '.bin', 'tollgate'), []],
      ['npx', ['--no-install', 'tollgate']],
    ] as const) {
      const help = run(command, [...args, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('usage: tollgate <command>');
      const version = run(command, [...args, '--version']);
      expect(version.code).toBe(0);
      expect(version.stdout.trim()).toBe(manifest.version);
    }
  });

  it('answers explain with exit 1 and the JSON decision, 0 when allowed, 2 on bad input', () => {
    const bin = join(consumer, 'node_modules', '.bin', 'tollgate');
    const denied = run('npx', [
      '--no-install',
      'tollgate',
      'explain',
      'GET',
      '/repos/acme/app/issues/events/7',
      '--kind',
      'fine-grained',
      '--permission',
      'contents=read',
      '--json',
    ]);
    expect(denied.code).toBe(1);
    const decision = JSON.parse(denied.stdout);
    expect(decision.status).toBe(403);
    expect(decision.headers['X-Accepted-Service-Permissions']).toBe('issues=read; pull_requests=read');
    const allowed = run(bin, [
      'explain',
      'GET',
      '/notifications',
      '--kind',
      'classic',
      '--scope',
      'notifications',
    ]);
    expect(allowed.code).toBe(0);
    const bad = run(bin, ['explain', 'GET', '/user', '--kind', 'fine-graned']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('`fine-graned`');
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  });

  it('prints the usage and exits 2 when run with no arguments', () => {
    const none = run(join(consumer, 'node_modules', '.bin', 'tollgate'), []);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('usage: tollgate <command>');
  });

  it('type-checks every README TypeScript block under strict nodenext and runs the quick starts verbatim', {
    timeout: 180_000,
  }, () => {
    const all = readmeBlocks();
    expect(all.length).toBeGreaterThanOrEqual(3);
    const blocks = all.filter((block) => block.runnable).map((block) => block.code);
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    // The README's custom store, as the package ships it, type-checks there too.
    const customStore = join(consumer, 'node_modules', 'tollgate', 'examples', 'custom-store.ts');
    writeReadmeProject(
      consumer,
      [...all, { code: readFileSync(customStore, 'utf8'), runnable: false }],
      blocks,
    );
    const compiled = run(process.execPath, [tsc, '-p', '.']);
    expect(compiled.stdout + compiled.stderr).toBe('');
    blocks.forEach((_, i) => {
      const result = run(process.execPath, [join('out', `readme-${i}.mjs`)]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/checked [1-9]/);
    });
  });

  it('type-checks a consumer importing the root and every subpath, from ESM and from CommonJS under the README tsconfig', {
    timeout: 180_000,
  }, () => {
    const specifiers = codeSubpaths();
    writeConsumerProject(consumer, specifiers);
    const compiled = run(process.execPath, [tsc, '-p', 'tsconfig.consumer.json']);
    expect(compiled.stdout + compiled.stderr).toBe('');
    const esm = run(process.execPath, [join('out-consumer', 'consumer.mjs')]);
    expect(esm.stderr).toBe('');
    const counts = esm.stdout.trim().split('\n')[0]!.split(' ').map(Number);
    expect(counts).toHaveLength(specifiers.length);
    expect(counts.every((n) => n > 0)).toBe(true);
    const cjs = run(process.execPath, [join('out-consumer', 'consumer.cjs')]);
    expect(cjs.stderr).toBe('');
    expect(readFileSync(join(consumer, 'out-consumer', 'consumer.cjs'), 'utf8')).toContain(
      'require("tollgate")',
    );
    expect(cjs.stdout.trim()).toBe('200 function function');
  });

  it('imports every subpath from plain Node ESM and requires it from CommonJS', () => {
    for (const specifier of [
      ...codeSubpaths(),
      'tollgate/schema/token.schema.json',
      'tollgate/package.json',
    ]) {
      const json = specifier.endsWith('.json');
      const esm = run(process.execPath, [
        '--input-type=module',
        '-e',
        `const m = await import('${specifier}'${json ? ", { with: { type: 'json' } }" : ''}); console.log(Object.keys(m).length);`,
      ]);
      expect(esm.stderr, specifier).toBe('');
      expect(Number(esm.stdout), specifier).toBeGreaterThan(0);
      const cjs = run(process.execPath, [
        '--input-type=commonjs',
        '-e',
        `console.log(Object.keys(require('${specifier}')).length);`,
      ]);
      expect(cjs.stderr, specifier).toBe('');
      expect(Number(cjs.stdout), specifier).toBeGreaterThan(0);
    }
  });

  it('installs on Node 20 without an engine warning, and without any Octokit package', () => {
    expect(installed.installWarnings).not.toMatch(/EBADENGINE|Unsupported engine/);
    expect(existsSync(join(consumer, 'node_modules', '@octokit'))).toBe(false);
  });

  it('loads no @babel/parser, yaml or ajv in a server importing the root, an adapter or tollgate/redis', () => {
    // All three are CommonJS packages, so once loaded they sit in require.cache, imported or required.
    const loaded = `const cache = (await import('node:module')).createRequire(import.meta.url).cache;
      const names = () => ['@babel/parser', 'yaml', 'ajv'].filter((p) => Object.keys(cache).some((f) => f.includes('/node_modules/' + p + '/')));`;
    const probe = (script: string): unknown => {
      const result = run(process.execPath, ['--input-type=module', '-e', `${loaded}\n${script}`]);
      expect(result.stderr).toBe('');
      return JSON.parse(result.stdout);
    };
    const servers = "['tollgate', 'tollgate/node', 'tollgate/fastify', 'tollgate/fetch', 'tollgate/redis']";
    expect(
      probe(`for (const s of ${servers}) await import(s); console.log(JSON.stringify(names()));`),
    ).toEqual([]);
    // tollgate/check itself loads @babel/parser only when it reads a source: the same probe sees it then.
    const babel = "names().includes('@babel/parser')";
    const scan = "scanSource('export const a = 1;', 'a.ts', new Map())";
    const check = `const { scanSource } = await import('tollgate/check'); const before = ${babel}; ${scan};`;
    expect(probe(`${check} console.log(JSON.stringify([before, ${babel}]));`)).toEqual([false, true]);
  });

  it('runs each README server setup as pasted and answers every curl line beside them as the README says', async () => {
    const lines = curlLines();
    expect(lines.map((line) => line.status).sort()).toEqual([200, 200, 401, 403, 404]);
    for (const name of Object.keys(SERVER_SETUPS) as (keyof typeof SERVER_SETUPS)[]) {
      const code = serverSetup(name);
      const shipped = join(consumer, 'node_modules', 'tollgate', 'examples', `server-${name}.ts`);
      expect(readFileSync(shipped, 'utf8'), 'the README block is the whole of the example').toBe(code);
      writeFileSync(join(consumer, `server-${name}.mts`), code);
      const server = await startServer(`server-${name}.mts`, consumer);
      try {
        const statuses = [];
        for (const line of lines) statuses.push(await statusOf(line, server.port));
        expect(statuses, name).toEqual(lines.map((line) => line.status));
      } finally {
        await server.stop();
      }
    }
  }, 120_000);

  it('runs every README `tollgate` command where the README runs it: the project or the installed package', () => {
    // The simulate runs have their own, stricter case below.
    const runs = cliRuns().filter(({ args }) => args[0] !== 'simulate');
    expect(runs.length).toBeGreaterThanOrEqual(4);
    const bin = join(consumer, 'node_modules', '.bin', 'tollgate');
    for (const { args, firstLine } of runs) {
      const fromProject = args.some((arg) => arg.startsWith('node_modules/'));
      const result = run(bin, args, fromProject ? consumer : join(consumer, 'node_modules', 'tollgate'));
      const shown = firstLine.split(/\s*\(\.\.\.\)|\.\.\./)[0]!.trim();
      if (firstLine.startsWith('tollgate:')) {
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stderr).toContain(shown);
      } else {
        expect([0, 1], `${args.join(' ')}: ${result.stderr}`).toContain(result.code);
        expect(result.stdout.replace(/[ \t]+/g, ' ')).toContain(shown.replace(/\s+/g, ' '));
      }
    }
  });

  it('runs every README `tollgate simulate` command in a project that installed the package, exit 0, printing every line the README shows', {
    timeout: 120_000,
  }, () => {
    const runs = simulateRuns();
    expect(runs.length).toBeGreaterThanOrEqual(3);
    const bin = join(consumer, 'node_modules', '.bin', 'tollgate');
    const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
    for (const { args, shown } of runs) {
      const command = `tollgate ${args.join(' ')}`;
      const fromProject = args.some((arg) => arg.startsWith('node_modules/'));
      const cwd = fromProject ? consumer : join(consumer, 'node_modules', 'tollgate');
      const result = run(bin, args, cwd);
      expect(result.stderr, command).toBe('');
      expect(result.code, command).toBe(0);
      // Each line the README shows, in order; a line cut with `...` matches up to the cut.
      const output = result.stdout.split('\n').map(flat);
      let from = 0;
      for (const line of shown.filter((each) => each.trim() !== '')) {
        const cut = flat(line.split(/\s*\(\.\.\.\)|\.\.\./)[0]!);
        const at = output.findIndex((each, i) => i >= from && each.startsWith(cut));
        expect(
          at,
          `${command}: the README shows \`${line}\`; it printed:\n${result.stdout}`,
        ).toBeGreaterThanOrEqual(0);
        from = at + 1;
      }
      const html = args.indexOf('--html');
      if (html >= 0) {
        const page = readFileSync(join(cwd, args[html + 1]!), 'utf8');
        expect(page.startsWith('<!doctype html>'), command).toBe(true);
        expect(page).toContain('<svg');
        // Self-contained: nothing the page would load.
        expect(page).not.toMatch(/\b(src|href)=|url\(|@import|<script/i);
      }
    }
  });
});

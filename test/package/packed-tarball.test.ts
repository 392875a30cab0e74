// The package as a user receives it: `npm pack`, installed into an empty project outside the
// repository, used through its symlinked bin, from ESM, CommonJS and TypeScript.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOnce, projectRoot } from '../support/build-once.js';

const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
  version: string;
  exports: Record<string, unknown>;
  devDependencies: Record<string, string>;
};
const tsc = join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc');

let work: string;
let consumer: string;
let packed: { filename: string; size: number; unpackedSize: number; files: { path: string }[] };

function run(command: string, args: readonly string[], cwd = consumer) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The subpaths of `exports` that name code (not JSON files), as import specifiers. */
function codeSubpaths(): string[] {
  return Object.keys(manifest.exports)
    .filter((key) => !key.includes('*') && !key.endsWith('.json'))
    .map((key) => (key === '.' ? 'tollgate' : `tollgate/${key.slice(2)}`));
}

/** The README's TypeScript blocks: all are type-checked, those marked `ts runnable` are also run. */
function readmeBlocks(): { code: string; runnable: boolean }[] {
  const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
  return [...readme.matchAll(/^```ts( runnable)?\n([\s\S]*?)^```$/gm)].map((match) => ({
    code: match[2]!,
    runnable: match[1] !== undefined,
  }));
}

/**
 * The block verbatim, then a check for each line `expression; // value` whose value is a literal:
 * `decision.status; // 403` appends `check("decision.status", decision.status, 403)`.
 */
function withChecks(block: string): string {
  const checks: string[] = [];
  for (const line of block.split('\n')) {
    const match = /^([A-Za-z_$][\w$.[\]'"-]*);\s*\/\/\s*(.+)$/.exec(line.trim());
    if (match === null) continue;
    try {
      new Function(`return (${match[2]});`);
    } catch {
      continue; // a comment in words, not a value
    }
    checks.push(`check(${JSON.stringify(match[1])}, ${match[1]}, ${match[2]});`);
  }
  return `${block}
function check(what: string, actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected))
    throw new Error(\`README: \${what} is \${JSON.stringify(actual)}, the README says \${JSON.stringify(expected)}\`);
}
${checks.join('\n')}
console.log('checked ${checks.length}');
`;
}

beforeAll(() => {
  buildOnce();
  work = mkdtempSync(join(tmpdir(), 'tollgate-pack-'));
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: projectRoot,
    encoding: 'utf8',
  });
  packed = JSON.parse(out)[0];
  consumer = join(work, 'consumer');
  mkdirSync(consumer);
  execFileSync('npm', ['init', '-y'], { cwd: consumer, stdio: 'pipe' });
  execFileSync(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, packed.filename)],
    { cwd: consumer, stdio: 'pipe' },
  );
  // What a server author has beside tollgate: Node's types and the frameworks of the adapters
  // (optional peers), at the versions this project tests with, from the local cache.
  const devVersion = (name: string) => `${name}@${manifest.devDependencies[name]}`;
  execFileSync(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      ...['@types/node', 'fastify', 'express', '@types/express', 'hono', '@hono/node-server', 'ioredis'].map(
        devVersion,
      ),
    ],
    { cwd: consumer, stdio: 'pipe' },
  );
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('holds only dist/, data/, README.md, LICENSE and package.json', () => {
    const paths = packed.files.map((file) => file.path);
    const stray = paths.filter(
      (path) => !/^(dist|data)\//.test(path) && !['README.md', 'LICENSE', 'package.json'].includes(path),
    );
    expect(stray).toEqual([]);
    expect(paths).toContain('LICENSE');
    expect(paths.filter((path) => /\.(test|spec)\.|\.map$|^src\//.test(path))).toEqual([]);
    // A source map comment would point to files the package does not ship.
    for (const path of paths.filter((p) => p.endsWith('.js'))) {
      const text = readFileSync(join(consumer, 'node_modules', 'tollgate', path), 'utf8');
      expect(text, path).not.toMatch(/sourceMappingURL=/);
    }
    console.log(
      `tarball ${packed.filename}: ${paths.length} files, ${(packed.size / 1024).toFixed(0)} KiB packed, ${(packed.unpackedSize / 1024).toFixed(0)} KiB unpacked`,
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

  it('type-checks every README TypeScript block under strict nodenext and runs the quick starts verbatim', () => {
    const all = readmeBlocks();
    expect(all.length).toBeGreaterThanOrEqual(3);
    const blocks = all.filter((block) => block.runnable).map((block) => block.code);
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    blocks.forEach((block, i) => {
      writeFileSync(join(consumer, `readme-${i}.mts`), withChecks(block));
    });
    all
      .filter((block) => !block.runnable)
      .forEach((block, i) => {
        writeFileSync(join(consumer, `readme-typed-${i}.mts`), `${block.code}\nexport {};\n`);
      });
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2022', 'dom'],
          types: ['node'],
          skipLibCheck: false,
          outDir: 'out',
        },
        include: ['readme-*.mts'],
        exclude: [],
      }),
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

  it('type-checks a consumer importing the root and every subpath, from ESM and from CommonJS', () => {
    const specifiers = codeSubpaths();
    const imports = specifiers.map((specifier, i) => `import * as m${i} from '${specifier}';`).join('\n');
    const uses = `console.log([${specifiers.map((_, i) => `Object.keys(m${i}).length`).join(', ')}].join(' '));`;
    const schema =
      "import tokenSchema from 'tollgate/schema/token.schema.json' with { type: 'json' };\nconsole.log(typeof tokenSchema);";
    writeFileSync(join(consumer, 'consumer.mts'), `${imports}\n${uses}\n${schema}\n`);
    // npm init -y makes a CommonJS project: `import` here compiles to require().
    writeFileSync(
      join(consumer, 'consumer.cts'),
      "import { authorize } from 'tollgate';\nconsole.log(authorize({ method: 'GET', path: '/notifications' }, { kind: 'classic', scopes: ['notifications'] }).status);\n",
    );
    writeFileSync(
      join(consumer, 'tsconfig.consumer.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2022', 'dom'],
          types: ['node'],
          resolveJsonModule: true,
          outDir: 'out-consumer',
        },
        files: ['consumer.mts', 'consumer.cts'],
      }),
    );
    const compiled = run(process.execPath, [tsc, '-p', 'tsconfig.consumer.json']);
    expect(compiled.stdout + compiled.stderr).toBe('');
    const esm = run(process.execPath, [join('out-consumer', 'consumer.mjs')]);
    expect(esm.stderr).toBe('');
    const counts = esm.stdout.trim().split('\n')[0]!.split(' ').map(Number);
    expect(counts).toHaveLength(specifiers.length);
    expect(counts.every((n) => n > 0)).toBe(true);
    const cjs = run(process.execPath, [join('out-consumer', 'consumer.cjs')]);
    expect(cjs.stderr).toBe('');
    expect(cjs.stdout.trim()).toBe('200');
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
});

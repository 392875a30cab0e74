// The package as a user receives it: `npm pack`, installed into an empty project outside the
// repository, beside the frameworks a server author has. One install, shared by every case.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOnce, projectRoot } from './build-once.js';

export const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
  version: string;
  exports: Record<string, unknown>;
  devDependencies: Record<string, string>;
};

/** The subpaths of `exports` that name code (not JSON files), as import specifiers. */
export function codeSubpaths(): string[] {
  return Object.keys(manifest.exports)
    .filter((key) => !key.includes('*') && !key.endsWith('.json'))
    .map((key) => (key === '.' ? 'tollgate' : `tollgate/${key.slice(2)}`));
}

export interface PackedConsumer {
  readonly work: string;
  /** The empty project the tarball was installed into (npm init -y: CommonJS). */
  readonly consumer: string;
  readonly packed: { filename: string; size: number; unpackedSize: number; files: { path: string }[] };
  /** What `npm install <tarball>` printed on stderr. */
  readonly installWarnings: string;
  /** `du` of the consumer's node_modules after installing the tarball alone, in KiB. */
  readonly installedKiB: number;
}

export function installPackedConsumer(): PackedConsumer {
  buildOnce();
  const work = mkdtempSync(join(tmpdir(), 'tollgate-pack-'));
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: projectRoot,
    encoding: 'utf8',
  });
  const packed = JSON.parse(out)[0];
  const consumer = join(work, 'consumer');
  mkdirSync(consumer);
  execFileSync('npm', ['init', '-y'], { cwd: consumer, stdio: 'pipe' });
  const install = spawnSync(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, packed.filename)],
    { cwd: consumer, encoding: 'utf8' },
  );
  if (install.status !== 0) throw new Error(`npm install of the tarball failed: ${install.stderr}`);
  const installedKiB = Number(
    execFileSync('du', ['-sk', 'node_modules'], { cwd: consumer, encoding: 'utf8' }).split('\t')[0],
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
  return { work, consumer, packed, installWarnings: install.stderr, installedKiB };
}

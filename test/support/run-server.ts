// Runs a server file as a user would (`npx tsx server.mts`, port from PORT) and asks it what a README curl line asks.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from './build-once.js';
import type { CurlLine } from './readme.js';
import { freePort } from './redis-server.js';

const tsx = pathToFileURL(join(projectRoot, 'node_modules', 'tsx', 'dist', 'esm', 'index.mjs')).href;
export const curlInstalled = spawnSync('curl', ['--version']).status === 0;

export interface RunningServer {
  readonly port: number;
  stop(): Promise<void>;
}

/** Starts `file` (TypeScript, run by tsx as `npx tsx` does) in `cwd` with `PORT` set; resolves once it answers. */
export async function startServer(file: string, cwd: string): Promise<RunningServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', tsx, file], {
    cwd,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`${file} exited with ${child.exitCode}: ${output}`);
    try {
      await fetch(`http://127.0.0.1:${port}/rate_limit`);
      return { port, stop };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await stop();
  throw new Error(`${file} did not answer on port ${port} within 30 s: ${output}`);
}

/**
 * The status a README curl line gets from the server on `port`: run by curl itself when it is
 * installed, else as the same request by fetch (the URL and `-H` headers read from the line).
 */
export async function statusOf(curl: CurlLine, port: number): Promise<number> {
  const args = curl.args.map((arg) => arg.replace('http://localhost:3000', `http://127.0.0.1:${port}`));
  if (curlInstalled) {
    const result = spawnSync('curl', ['-s', ...args], { encoding: 'utf8' });
    const status = /^HTTP\/[\d.]+ (\d{3})/.exec(result.stdout)?.[1];
    if (status === undefined) throw new Error(`\`${curl.line}\` answered no status: ${result.stderr}`);
    return Number(status);
  }
  const headers = new Headers();
  let url = '';
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-H') {
      const [name, ...value] = args[++i]!.split(':');
      headers.set(name!.trim(), value.join(':').trim());
    } else if (args[i]!.startsWith('http')) url = args[i]!;
  }
  return (await fetch(url, { headers })).status;
}

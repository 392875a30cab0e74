// `npm run demo:server` as a newcomer runs it: the script starts, prints its address and tokens,
// and answers the first curl of its list.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../support/build-once.js';

describe('npm run demo:server', () => {
  it('starts, prints tokens to try, and answers with tollgate in front', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/run-demo-server.ts'], {
      cwd: projectRoot,
      env: { ...process.env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      child.stdout.setEncoding('utf8');
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: string) => {
          output += chunk;
          const found = /demo server on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
          if (found !== null && output.includes('try:')) resolve(found[1]!);
        });
        child.once('exit', (code) => reject(new Error(`demo server exited with ${code}: ${output}`)));
      });
      expect(output).toMatch(/demo-issues-reader\s+fine-grained, permissions issues=read/);
      const allowed = await fetch(`${url}/repos/acme/app/issues/events`, {
        headers: { authorization: 'Bearer demo-issues-reader' },
      });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('x-ratelimit-remaining')).toBe('4999');
      const hidden = await fetch(`${url}/repos/acme/other/issues/events`, {
        headers: { authorization: 'Bearer demo-issues-reader' },
      });
      expect(hidden.status).toBe(404);
    } finally {
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        child.kill();
        await exited;
      }
    }
  });
});

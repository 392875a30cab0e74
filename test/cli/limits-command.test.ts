// `tollgate limits`: what a caller's limits are, as text and JSON; one-line errors and exit 2.
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';

async function cli(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    isTty: false,
  });
  return { code, stdout, stderr };
}

describe('tollgate limits', () => {
  it('shows 7,000 per hour for an installation on 50 repositories with 30 users', async () => {
    const { code, stdout, stderr } = await cli(
      'limits',
      '--kind',
      'app-installation',
      '--repositories',
      '50',
      '--users',
      '30',
    );
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^ {2}core +7,000 requests per hour +fixed window/m);
    expect(stdout).toMatch(/^ {2}concurrency +100 requests in flight at any moment +counter/m);
    expect(stdout).toMatch(/^ {2}rest_points +900 points per minute +sliding log/m);
    expect(stdout).toContain('counted per installation');
  });

  it('caps an installation at 12,500 and gives 15,000 on enterprise cloud', async () => {
    expect(
      (await cli('limits', '--kind', 'app-installation', '--repositories', '300', '--users', '300')).stdout,
    ).toMatch(/core +12,500 requests per hour/);
    expect((await cli('limits', '--kind', 'app-installation', '--enterprise-cloud')).stdout).toMatch(
      /core +15,000 requests per hour/,
    );
  });

  it('shows 60 per hour and 300 lfs per minute for an anonymous caller', async () => {
    const { stdout } = await cli('limits', '--kind', 'anonymous');
    expect(stdout).toMatch(/core +60 requests per hour/);
    expect(stdout).toMatch(/lfs +300 requests per minute/);
    expect(stdout).toContain('per originating IP address');
  });

  it('prints every limit as JSON with its number, window and algorithm', async () => {
    const { code, stdout } = await cli('limits', '--kind', 'workflow', '--json');
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({ kind: 'workflow', caller: 'workflow', enterprise_cloud: false });
    expect(out.limits).toContainEqual(
      expect.objectContaining({
        rule: 'primary',
        resource: 'core',
        limit: 1000,
        window_seconds: 3600,
        algorithm: 'fixed window',
      }),
    );
    expect(out.limits).toContainEqual(
      expect.objectContaining({
        rule: 'content_per_hour',
        limit: 500,
        window_seconds: 3600,
        algorithm: 'sliding log',
      }),
    );
    expect(out.limits).toContainEqual(
      expect.objectContaining({ rule: 'cpu', limit: 90, window_seconds: 60 }),
    );
    expect(out.limits).toHaveLength(11);
  });

  it('gives 15,000 to a user acting through an enterprise-cloud app, with a shared per-user identity', async () => {
    for (const kind of ['app-user', 'oauth-app']) {
      const { stdout } = await cli('limits', '--kind', kind, '--enterprise-cloud');
      expect(stdout).toMatch(/core +15,000 requests per hour/);
      expect(stdout).toContain("shared by all of the user's tokens");
    }
  });

  it('refuses --enterprise-cloud for personal access tokens, which it would not change (seed 000: 15,000 only through an app)', async () => {
    for (const kind of ['classic', 'fine-grained']) {
      const { code, stdout, stderr } = await cli('limits', '--kind', kind, '--enterprise-cloud');
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toBe(
        `tollgate: limits: \`--enterprise-cloud\` does not apply to \`${kind}\` (the seed gives it no enterprise-cloud limit); it applies to app-user, app-installation, oauth-app, workflow, client-credentials\n`,
      );
      expect((await cli('limits', '--kind', kind)).stdout).toMatch(/core +5,000 requests per hour/);
    }
  });

  it.each([
    [
      ['limits', '--kind', 'app-instalation'],
      /unknown token kind `app-instalation` \(did you mean `app-installation`\?\); valid choices: classic,/,
    ],
    [['limits'], /`--kind` is required; valid choices:/],
    [['limits', '--kind', 'classic', '--bogus'], /unknown option `--bogus`/],
    [
      ['limits', '--kind', 'app-installation', '--repositories', 'many'],
      /`--repositories` must be a whole number, got `many`/,
    ],
    [['limits', '--kind', 'classic', '--users', '3'], /apply to `app-installation` only, not `classic`/],
    [['limits', '--kind', 'anonymous', '--enterprise-cloud'], /does not apply to `anonymous`/],
  ])('rejects %j with one line and exit 2', async (argv, message) => {
    const { code, stdout, stderr } = await cli(...argv);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(message);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('prints its help', async () => {
    const { code, stdout } = await cli('limits', '--help');
    expect(code).toBe(0);
    expect(stdout).toContain('--repositories N');
  });
});

describe('limits: values that look like options', () => {
  it('says what is wrong with a negative count instead of "argument is ambiguous"', async () => {
    let stderr = '';
    const code = await runCli(['limits', '--kind', 'app-installation', '--repositories', '-5'], {
      stdout: () => {},
      stderr: (t) => {
        stderr += t;
      },
      isTty: false,
    });
    expect(code).toBe(2);
    expect(stderr).toContain('`--repositories` must be a whole number, got `-5`');
    expect(stderr).not.toContain('ambiguous');
  });
});

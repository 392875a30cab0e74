import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../../src/cli/main.js';
import { authorize } from '../../src/policy/authorize-default.js';
import type { PolicyRequest, ResourceContext, Token } from '../../src/policy/types.js';

interface Fixture {
  name: string;
  request: PolicyRequest;
  token: Token & { permissions?: Record<string, string>; scopes?: string[]; repositories?: 'all' | string[] };
  context?: ResourceContext;
  expect: Record<string, unknown>;
}

const folder = join(import.meta.dirname, '..', 'fixtures', 'decisions');
const fixtures: Fixture[] = readdirSync(folder)
  .filter((file) => file.endsWith('.yaml'))
  .flatMap((file) => parse(readFileSync(join(folder, file), 'utf8')) as Fixture[]);

function withDefaults(token: Fixture['token']): Token {
  if ('permissions' in token && token.permissions !== undefined)
    return { repositories: 'all', ...token } as Token;
  return token as Token;
}

function cliArgs({ request, token, context }: Fixture): string[] {
  const args = ['explain', request.method, request.path, '--json', '--kind', token.kind];
  for (const scope of token.scopes ?? []) args.push('--scope', scope);
  for (const [slug, level] of Object.entries(token.permissions ?? {}))
    args.push('--permission', `${slug}=${level}`);
  if (Array.isArray(token.repositories))
    for (const repo of token.repositories) args.push('--repository', repo);
  if (context?.visibility) args.push('--visibility', context.visibility);
  if (context?.organizationOwner) args.push('--owner');
  if (request.apiVersion) args.push('--api-version', request.apiVersion);
  return args;
}

describe('decision fixtures agree between the library and the CLI', () => {
  it('has fixtures to run', () => {
    expect(fixtures.length).toBeGreaterThan(20);
  });

  for (const fixture of fixtures) {
    it(fixture.name, async () => {
      const decision = authorize(fixture.request, withDefaults(fixture.token), fixture.context);
      expect(decision).toMatchObject(fixture.expect);
      let out = '';
      let err = '';
      const code = await runCli(cliArgs(fixture), {
        stdout: (t) => (out += t),
        stderr: (t) => (err += t),
        isTty: false,
      });
      expect(err).toBe('');
      expect(code).toBe(decision.allowed ? 0 : 1);
      expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(decision)));
    });
  }
});

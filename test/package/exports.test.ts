import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOnce, projectRoot as root } from '../support/build-once.js';

// Runs a module in a plain Node process from the project root, so `tollgate` resolves through
// package.json's `exports` to the built dist/, exactly as an installed package would.
function runNode(source: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', source], {
    cwd: root,
    encoding: 'utf8',
  });
}

beforeAll(buildOnce, 180_000);

describe('the built package', () => {
  it('exports exactly the pinned names from `tollgate`', () => {
    const names = JSON.parse(
      runNode("const m = await import('tollgate'); console.log(JSON.stringify(Object.keys(m).sort()));"),
    );
    expect(names).toEqual(PINNED_EXPORTS);
  });

  it('resolves the JSON Schemas under `tollgate/schema/*`', () => {
    const out = runNode(
      "for (const n of ['permissions', 'scopes', 'token', 'limits']) { const u = import.meta.resolve('tollgate/schema/' + n + '.schema.json'); const s = await import(u, { with: { type: 'json' } }); console.log(s.default.title); }",
    );
    expect(out.trim().split('\n')).toHaveLength(4);
  });

  it('answers the README quick start from dist', () => {
    const out = runNode(
      "import { authorize } from 'tollgate'; const d = authorize({ method: 'GET', path: '/repos/acme/app/issues/events/7' }, { kind: 'fine-grained', permissions: { contents: 'read' }, repositories: 'all' }); console.log(JSON.stringify([d.status, d.reason, d.headers]));",
    );
    expect(JSON.parse(out)).toEqual([
      403,
      'insufficient_permission',
      { 'X-Accepted-Service-Permissions': 'issues=read; pull_requests=read' },
    ]);
  });

  it('runs the tollgate binary', () => {
    const out = execFileSync(process.execPath, ['dist/cli/bin.js', '--help'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(out).toContain('usage: tollgate <command>');
  });
});

// The public API of `tollgate`: a change here is a change of the package's contract.
const PINNED_EXPORTS: string[] = [
  'DEFAULT_HEADER_NAMES',
  'HTTP_METHODS',
  'LIMITS_RESOURCES',
  'LIMIT_RULES',
  'PERMISSION_KINDS',
  'RULE_ALGORITHMS',
  'SCOPED_KINDS',
  'TOKEN_KINDS',
  'TollgateError',
  'allowedVerdict',
  'authorize',
  'callerClassOf',
  'closeScopes',
  'closest',
  'compileLimits',
  'compileRoutes',
  'compileTables',
  'compileTablesOrThrow',
  'createLimiter',
  'createMemoryStore',
  'createPolicy',
  'defaultLimits',
  'deniedVerdict',
  'didYouMean',
  'formatAcceptedPermissions',
  'formatAcceptedScopes',
  'formatIssue',
  'heldScopes',
  'httpDate',
  'identityOf',
  'installationLimit',
  'isTollgateError',
  'levelCovers',
  'limitedResponse',
  'shippedTables',
  'loadTableText',
  'loadTablesWithOverlays',
  'matchRoute',
  'missingPermissions',
  'missingScopes',
  'notModified',
  'parseAcceptedPermissions',
  'parseAcceptedScopes',
  'parseSourceDocument',
  'parseTokenText',
  'permissionsMeet',
  'pointCost',
  'pollInterval',
  'pollingHeaders',
  'primaryLimits',
  'rateLimitBody',
  'rateLimitHeaders',
  'readTextFile',
  'registerSchema',
  'resolvePolicyOptions',
  'resourceWindowMs',
  'retryDelay',
  'scopesMeet',
  'shippedSources',
  'smallestMissing',
  'stateExpiresAt',
  'step',
  'templateParams',
  'validateDocument',
];

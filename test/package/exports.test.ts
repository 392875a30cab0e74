import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENTRY_POINTS } from '../../entry-points.js';
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
  it.each(Object.keys(PINNED_EXPORTS))('exports exactly the pinned names from `%s`', (entry) => {
    const names = JSON.parse(
      runNode(`const m = await import('${entry}'); console.log(JSON.stringify(Object.keys(m).sort()));`),
    );
    expect(names).toEqual(PINNED_EXPORTS[entry]);
  });

  it('pins every code subpath of package.json exports', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    const entries = Object.keys(manifest.exports)
      .filter((key) => !key.includes('*') && !key.endsWith('.json'))
      .map((key) => (key === '.' ? 'tollgate' : `tollgate/${key.slice(2)}`));
    expect(entries.sort()).toEqual(Object.keys(PINNED_EXPORTS).sort());
    // entry-points.ts (what tsup builds and vitest resolves) names the same subpaths.
    expect(
      Object.keys(ENTRY_POINTS)
        .map((name) => (name === 'index' ? 'tollgate' : `tollgate/${name}`))
        .sort(),
    ).toEqual(entries.sort());
  });

  it('keeps the root small: about twenty names a user calls or writes down', () => {
    expect(PINNED_EXPORTS.tollgate!.length).toBeLessThanOrEqual(20);
  });

  it('resolves the JSON Schemas under `tollgate/schema/*`', () => {
    const out = runNode(
      "for (const n of ['permissions', 'scopes', 'token', 'limits']) { const u = import.meta.resolve('tollgate/schema/' + n + '.schema.json'); const s = await import(u, { with: { type: 'json' } }); console.log(s.default.title); }",
    );
    expect(out.trim().split('\n')).toHaveLength(4);
  });

  it('runs the tollgate binary', () => {
    const out = execFileSync(process.execPath, ['dist/cli/bin.js', '--help'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(out).toContain('usage: tollgate <command>');
  });
});

// The public API, entry by entry: a change here is a change of the package's contract.
const PINNED_EXPORTS: Record<string, string[]> = {
  tollgate: [
    'TollgateError',
    'authorize',
    'createGate',
    'createLimiter',
    'createMemoryStore',
    'createPolicy',
    'guardStore',
    'isTollgateError',
    'limitedResponse',
    'retryDelay',
    'shippedTables',
  ],
  'tollgate/policy': [
    'HTTP_METHODS',
    'TOKEN_KINDS',
    'authorize',
    'closeScopes',
    'compileTables',
    'createPolicy',
    'formatAcceptedPermissions',
    'formatAcceptedScopes',
    'heldScopes',
    'missingPermissions',
    'missingScopes',
    'parseAcceptedPermissions',
    'parseAcceptedScopes',
    'permissionsMeet',
    'scopesMeet',
    'shippedSources',
    'shippedTables',
    'smallestMissing',
  ],
  'tollgate/redis': ['createRedisStore'],
  'tollgate/routes': ['compileRoutes', 'matchRoute', 'tryCompileRoutes'],
  'tollgate/limits': [
    'COUNTED_PER',
    'RULE_ALGORITHMS',
    'callerClassOf',
    'compileLimits',
    'createTicketLedger',
    'defaultLimits',
    'httpDate',
    'identityOf',
    'installationLimit',
    'limitedResponse',
    'limitsReport',
    'nearestRule',
    'notModified',
    'pointCost',
    'pollInterval',
    'pollingHeaders',
    'primaryLimits',
    'rateLimitBody',
    'retryDelay',
    'stateExpiresAt',
    'step',
    'unavailableVerdict',
  ],
  'tollgate/check': [
    'WORKFLOW_KEYS',
    'checkCalls',
    'checkWorkflowJob',
    'ghApiCalls',
    'githubReport',
    'jsonReport',
    'junitReport',
    'leastPermissions',
    'leastScopes',
    'octokitRoutes',
    'overlaySkeleton',
    'readSources',
    'sarifReport',
    'scanSource',
    'textReport',
  ],
  'tollgate/fastify': ['tollgatePlugin'],
  'tollgate/fetch': ['withTollgate'],
  'tollgate/node': ['tollgate'],
  'tollgate/sim': [
    'DURATION_FORMS',
    'adviceText',
    'durationSeconds',
    'expandScenario',
    'htmlReport',
    'jsonChunks',
    'poolSummaries',
    'poolText',
    'readScenario',
    'recommend',
    'simulate',
    'textReport',
  ],
  'tollgate/tables': [
    'formatIssue',
    'loadTableText',
    'loadTables',
    'loadTokenFile',
    'parseDataFile',
    'parseSourceDocument',
    'parseTokenText',
    'readTextFile',
    'validateDocument',
  ],
};

// The scanner beyond REST calls: GraphQL, false finds, constants of other modules, and any input (unparsable, huge, deep).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { octokitRoutes } from '../../src/check/octokit-routes.js';
import { scanSource } from '../../src/check/scan-source.js';
import { scratchFiles } from '../support/cli.js';

/** Each call as `line METHOD /path` (resolved) or `line ? reason` (unresolved). */
async function scan(code: string, file = 'bot.ts'): Promise<string[]> {
  return scanSource(code, file, await octokitRoutes()).map((call) =>
    call.resolved
      ? `${call.origin.line} ${call.method} ${call.path}`
      : `${call.origin.line} ? ${call.reason}`,
  );
}

describe('scanSource: GraphQL', () => {
  it('lists each GraphQL call as POST /graphql, query or mutation, with the seed’s point cost', async () => {
    const code = [
      "import { graphql } from '@octokit/graphql';",
      'const ADD = `mutation($id: ID!) { addStar(input: { starrableId: $id }) { clientMutationId } }`;',
      'await octokit.graphql(`query { viewer { login } }`);',
      'await github.graphql(ADD, { id });',
      'await graphql({ query: `# the labels\\n{ repository(owner: "o", name: "r") { labels(first: 5) { nodes { name } } } }` });',
      "const authed = graphql.defaults({ headers: { authorization: 'token x' } });",
      'await authed(gql`mutation { lock(input: {}) { clientMutationId } }`);',
      "await octokit.request('POST /graphql', { query: 'query { rateLimit { remaining } }' });",
      'await octokit.graphql.paginate(query, {});',
    ].join('\n');
    const calls = scanSource(code, 'a.ts', await octokitRoutes());
    expect(calls.map((call) => [call.origin.line, `${call.method} ${call.path}`, call.graphql])).toEqual([
      [3, 'POST /graphql', { operation: 'query', cost: 1 }],
      [4, 'POST /graphql', { operation: 'mutation', cost: 5 }],
      [5, 'POST /graphql', { operation: 'query', cost: 1 }],
      [7, 'POST /graphql', { operation: 'mutation', cost: 5 }],
      [8, 'POST /graphql', { operation: 'query', cost: 1 }],
      // A document out of sight: the higher cost.
      [9, 'POST /graphql', { operation: 'unknown', cost: 5 }],
    ]);
  });

  it('does not take graphql-js running a query on a local schema for a call to the service', async () => {
    const code = "import { graphql } from 'graphql';\nawait graphql({ schema, source: '{ hello }' });";
    expect(await scan(code)).toEqual([]);
  });
});

describe('scanSource: false finds kept rare', () => {
  it('ignores Octokit-shaped names on objects that are not clients, outside Octokit modules', async () => {
    const code = [
      'const cache = new Map();',
      'cache.repos.get(id);',
      'db.users.get(id);',
      'https.request(options, (res) => {});',
      'this.issues.create(item);',
    ].join('\n');
    // A test double watches a method; it does not call it.
    const spec =
      "import { Octokit } from '@octokit/rest';\nexpect(octokit.rest.issues.create).toHaveBeenCalledTimes(1);\njest.spyOn(octokit.rest.pulls.get);";
    expect(await scan(spec, 'bot.test.ts')).toEqual([]);
    expect(await scan(code, 'store.js')).toEqual([]);
  });
});

describe('scanSource: robust on any input', () => {
  it('lists code that does not parse as one unresolved call at the error, without throwing', async () => {
    const calls = scanSource('const a = 1;\nconst = ;\n', 'broken.ts', await octokitRoutes(), {
      line: 10,
      column: 2,
    });
    expect(calls).toEqual([
      {
        method: '',
        path: '',
        origin: { file: 'broken.ts', line: 12, column: 9 },
        resolved: false,
        via: 'the whole file',
        reason: expect.stringMatching(/^cannot parse: Unexpected token; no call of this file is read$/),
      },
    ]);
  });

  it('scans 200,000 calls in one file', async () => {
    const code = Array.from({ length: 200_000 }, (_, i) =>
      i % 2 === 0 ? `o.request('/a${i}');` : 'octokit.issues.get();',
    ).join('\n');
    const calls = scanSource(code, 'big.js', await octokitRoutes());
    expect(calls).toHaveLength(200_000);
    expect(calls[199_999]).toMatchObject({
      method: 'GET',
      path: '/repos/{owner}/{repo}/issues/{issue_number}',
      origin: { line: 200_000 },
    });
  }, 120_000);

  it('scans a 5,000-link member chain; 5,000 nested calls are one unresolved call', async () => {
    const chain = `await octokit${'.next'.repeat(5000)}.rest.issues.get({});`;
    expect(await scan(chain)).toEqual(['1 GET /repos/{owner}/{repo}/issues/{issue_number}']);
    const nested = `${'f('.repeat(5000)}octokit.rest.repos.get({})${')'.repeat(5000)};`;
    // @babel/parser recurses on nesting and gives up: one unresolved call, never a crash.
    expect(await scan(nested)).toEqual([
      '1 ? cannot parse: the code nests deeper than the parser can follow; no call of this file is read',
    ]);
  });
});

describe('scanSource: constants another module of the project exports', () => {
  const file = scratchFiles('tollgate-scan-');

  it('reads GraphQL documents and routes imported from a relative module (ESM, require, CommonJS exports)', async () => {
    file(
      'src/data.js',
      'export const lockQuery = `mutation ($id: ID!) { lockLockable(input: { lockableId: $id }) { clientMutationId } }`;\n',
    );
    file(
      'src/routes.cjs',
      "module.exports = { LABELS: 'GET /repos/{owner}/{repo}/labels' };\nexports.EVENTS = 'GET /repos/{owner}/{repo}/issues/events';\n",
    );
    file('src/queries.ts', 'export const VIEWER = `query { viewer { login } }`;\n');
    const main = file(
      'src/index.js',
      [
        "import { lockQuery as lock } from './data.js';",
        "import * as queries from './queries.js';",
        "const { LABELS, EVENTS } = require('./routes.cjs');",
        'await this.client.graphql(lock, { id });',
        'await octokit.graphql(queries.VIEWER);',
        'await octokit.request(LABELS);',
        'await octokit.request(EVENTS);',
        "import { MISSING } from './nowhere.js';",
        'await octokit.graphql(MISSING);',
      ].join('\n'),
    );
    const calls = scanSource(readFileSync(main, 'utf8'), main, await octokitRoutes());
    expect(
      calls.map((call) => [call.origin.line, `${call.method} ${call.path}`, call.graphql?.operation]),
    ).toEqual([
      [4, 'POST /graphql', 'mutation'],
      [5, 'POST /graphql', 'query'],
      [6, 'GET /repos/{owner}/{repo}/labels', undefined],
      [7, 'GET /repos/{owner}/{repo}/issues/events', undefined],
      [9, 'POST /graphql', 'unknown'],
    ]);
  });
});

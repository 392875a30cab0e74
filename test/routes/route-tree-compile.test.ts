import { describe, expect, it } from 'vitest';
import { buildAutomaton } from '../../src/routes/build-automaton.js';
import { parseTemplate } from '../../src/routes/parse-template.js';
import { compileRoutes, matchRoute, templateParams, tryCompileRoutes } from '../../src/routes/route-tree.js';
import { createRouteTrie, insertRoute } from '../../src/routes/route-trie.js';
import type { RouteInput } from '../../src/routes/route-types.js';
import { expectInvalidTable, tree } from '../support/route-tree-cases.js';

describe('compileRoutes', () => {
  it('accepts one template under several methods', () => {
    expect(() =>
      compileRoutes([
        { method: 'GET', template: '/a/{b}' },
        { method: 'PUT', template: '/a/{b}' },
      ]),
    ).not.toThrow();
  });

  it('throws TOLLGATE_INVALID_TABLE for a duplicate method and template', () => {
    expectInvalidTable(
      [
        { method: 'GET', template: '/a/{b}' },
        { method: 'GET', template: '/a/{b}' },
      ],
      'listed twice',
    );
  });

  it('throws TOLLGATE_INVALID_TABLE for two templates that differ only in parameter names', () => {
    expectInvalidTable(
      [
        { method: 'GET', template: '/a/{b}' },
        { method: 'GET', template: '/a/{c}' },
      ],
      'conflicts with `GET /a/{b}`',
    );
    expectInvalidTable(
      [
        { method: 'GET', template: '/a/{p}', multiSegment: 'p' },
        { method: 'GET', template: '/a/{q}', multiSegment: 'q' },
      ],
      'conflicts',
    );
  });

  it('throws TOLLGATE_INVALID_TABLE for malformed templates', () => {
    const cases: [RouteInput, string][] = [
      [{ method: 'GET', template: 'repos' }, 'does not start'],
      [{ method: 'GET', template: '' }, 'does not start'],
      [{ method: 'GET', template: '/repos/' }, 'empty segment'],
      [{ method: 'GET', template: '/a//b' }, 'empty segment'],
      [{ method: 'GET', template: '/a/../b' }, 'dot segment'],
      [{ method: 'GET', template: '/a/{b' }, 'malformed segment'],
      [{ method: 'GET', template: '/a/{b}.json' }, 'malformed segment'],
      [{ method: 'GET', template: '/a/{}' }, 'malformed segment'],
      [{ method: 'GET', template: '/a/b%20c' }, 'malformed segment'],
      [{ method: 'GET', template: '/a/{b}/{b}' }, 'repeats the parameter `b`'],
      [{ method: 'GET', template: '/a/{p}/b', multiSegment: 'p' }, 'before its end'],
      [{ method: 'GET', template: '/a/{p}', multiSegment: 'q' }, 'no parameter `q`'],
      [{ method: 'GET', template: '/a/{p}', encodedSlash: ['q'] }, 'no parameter `q`'],
    ];
    for (const [route, fragment] of cases) expectInvalidTable([route], fragment);
  });

  it('throws TOLLGATE_INVALID_TABLE past the state limit instead of building without end', () => {
    const trie = createRouteTrie();
    ['/a/{x}/c', '/{y}/b/d', '/a/b/{z}'].forEach((template, index) => {
      insertRoute(trie, index, 'GET', template, parseTemplate(template));
    });
    expect(buildAutomaton(trie.root).stateCount).toBeGreaterThan(3);
    expect(() => buildAutomaton(trie.root, 3)).toThrow(/more than 3 matcher states/);
  });

  it('compiles the realistic route set into a small automaton', () => {
    // 36 trie nodes; three states merge two of them ([actions, {security_product}],
    // [repos, {security_product}], [hosted-runners, {enablement}]) and replace three single-node ones.
    // A change here means the subset construction changed shape.
    expect(tree.stateCount).toBe(36);
  });
});

describe('templateParams', () => {
  it('lists parameter names in order', () => {
    expect(templateParams('/repos/{owner}/{repo}/environments/{environment_name}/variables/{name}')).toEqual([
      'owner',
      'repo',
      'environment_name',
      'name',
    ]);
    expect(templateParams('/user/repos')).toEqual([]);
  });

  it('throws TOLLGATE_INVALID_TABLE for a malformed template', () => {
    expect(() => templateParams('/a/{b')).toThrow(/malformed segment/);
  });
});

describe('compiling routes: options and issues as values', () => {
  it('cuts `.git` only from the parameters a route names in stripGitSuffix', () => {
    const tree = compileRoutes([
      { method: 'GET', template: '/repos/{owner}/{repo}', stripGitSuffix: ['repo'] },
      { method: 'GET', template: '/files/{owner}/{name}' },
    ]);
    expect(matchRoute(tree, 'GET', '/repos/o/app.git')).toEqual({
      kind: 'matched',
      route: 0,
      params: expect.objectContaining({ repo: 'app' }),
    });
    expect(matchRoute(tree, 'GET', '/files/o/app.git')).toEqual({
      kind: 'matched',
      route: 1,
      params: expect.objectContaining({ name: 'app.git' }),
    });
  });

  it('returns every refused route with its index, not text to parse', () => {
    const { tree, issues } = tryCompileRoutes([
      { method: 'GET', template: '/a/{x}' },
      { method: 'GET', template: 'no-slash' },
      { method: 'GET', template: '/a/{y}' },
      { method: 'GET', template: '/b/{x}', stripGitSuffix: ['nope'] },
    ]);
    expect(tree).toBeUndefined();
    expect(issues.map(({ route, code, other }) => ({ route, code, other }))).toEqual([
      { route: 1, code: 'invalid_template', other: undefined },
      { route: 2, code: 'duplicate_route', other: 0 },
      { route: 3, code: 'invalid_template', other: undefined },
    ]);
  });
});

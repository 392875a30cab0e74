import { describe, expect, it } from 'vitest';
import { isTollgateError } from '../../src/core/errors.js';
import { buildAutomaton } from '../../src/routes/build-automaton.js';
import { parseTemplate } from '../../src/routes/parse-template.js';
import { compileRoutes, matchRoute, templateParams, tryCompileRoutes } from '../../src/routes/route-tree.js';
import { createRouteTrie, insertRoute } from '../../src/routes/route-trie.js';
import type { RouteInput, RouteMatch } from '../../src/routes/route-types.js';
import { ROUTE_SET } from '../support/route-set.js';

const ROUTES = ROUTE_SET;

const tree = compileRoutes(ROUTES);

function routeOf(template: string, method: string): number {
  const index = ROUTES.findIndex((route) => route.template === template && route.method === method);
  if (index < 0) throw new Error(`no ${method} ${template} in ROUTES`);
  return index;
}

/** The match with its params as a plain object, for toEqual. */
function match(method: string, target: string): RouteMatch {
  const result = matchRoute(tree, method, target);
  return result.kind === 'matched' ? { ...result, params: { ...result.params } } : result;
}

function matched(method: string, template: string, params: Record<string, string>): RouteMatch {
  return { kind: 'matched', route: routeOf(template, method), params };
}

function expectBadPath(method: string, target: string, segment: string): void {
  const result = matchRoute(tree, method, target);
  expect(result.kind, target).toBe('bad_path');
  if (result.kind !== 'bad_path') return;
  expect(result.message).toContain(`\`${segment}\``);
  expect(result.message).toMatch(/^[a-z]/);
  expect(result.message).not.toMatch(/[\r\n]/);
}

function expectInvalidTable(routes: readonly RouteInput[], fragment: string): void {
  try {
    compileRoutes(routes);
  } catch (error) {
    expect(isTollgateError(error) && error.code).toBe('TOLLGATE_INVALID_TABLE');
    expect((error as Error).message).toContain(fragment);
    return;
  }
  throw new Error(`compileRoutes accepted ${JSON.stringify(routes)}`);
}

describe('matchRoute: static and parameter segments', () => {
  it('matches a static route and the root', () => {
    expect(match('GET', '/user/repos')).toEqual(matched('GET', '/user/repos', {}));
    expect(match('GET', '/')).toEqual(matched('GET', '/', {}));
  });

  it('ignores the query string and the fragment', () => {
    expect(match('GET', '/user/repos?per_page=100&page=2')).toEqual(matched('GET', '/user/repos', {}));
    expect(match('GET', '/user/repos#top')).toEqual(matched('GET', '/user/repos', {}));
    expect(match('GET', '/users/octo#x?y')).toEqual(
      matched('GET', '/users/{username}', { username: 'octo' }),
    );
    expect(match('GET', '/?x=1')).toEqual(matched('GET', '/', {}));
  });

  it('considers only the routes of the request method', () => {
    expect(match('PATCH', '/orgs/octo')).toEqual(matched('PATCH', '/orgs/{org}', { org: 'octo' }));
    expect(match('GET', '/orgs/octo')).toEqual({ kind: 'no_match' });
    expect(match('POST', '/user/repos')).toEqual(matched('POST', '/user/repos', {}));
    expect(match('HEAD', '/user/repos')).toEqual({ kind: 'no_match' });
    expect(match('get', '/user/repos')).toEqual({ kind: 'no_match' });
    expect(match('BREW', '/user/repos')).toEqual({ kind: 'no_match' });
  });

  it('prefers a static segment over a parameter', () => {
    expect(match('POST', '/orgs/octo/actions/hosted-runners')).toEqual(
      matched('POST', '/orgs/{org}/actions/hosted-runners', { org: 'octo' }),
    );
  });

  it('falls back to the parameter route when the static branch fails further on', () => {
    expect(match('POST', '/orgs/octo/actions/whatever')).toEqual(
      matched('POST', '/orgs/{org}/{security_product}/{enablement}', {
        org: 'octo',
        security_product: 'actions',
        enablement: 'whatever',
      }),
    );
    expect(match('POST', '/orgs/octo/secret_scanning/enable_all')).toEqual(
      matched('POST', '/orgs/{org}/{security_product}/{enablement}', {
        org: 'octo',
        security_product: 'secret_scanning',
        enablement: 'enable_all',
      }),
    );
  });

  it('keys parameters by position, so routes naming the same position differently both work', () => {
    expect(match('POST', '/repos/octo/tpl/generate')).toEqual(
      matched('POST', '/repos/{template_owner}/{template_repo}/generate', {
        template_owner: 'octo',
        template_repo: 'tpl',
      }),
    );
    expect(match('POST', '/repos/octo/app/issues')).toEqual(
      matched('POST', '/repos/{owner}/{repo}/issues', { owner: 'octo', repo: 'app' }),
    );
    expect(match('GET', '/repos/octo/app/issues/7')).toEqual(
      matched('GET', '/repos/{owner}/{repo}/issues/{issue_number}', {
        owner: 'octo',
        repo: 'app',
        issue_number: '7',
      }),
    );
  });

  it('reads a static segment in other letter case as that segment where no parameter could stand', () => {
    // Express routes case-insensitively by default: `/Repos/octo/app` reaches the handler of
    // `/repos/{owner}/{repo}`, so it is decided as that endpoint, never passed on as unknown.
    expect(match('GET', '/Repos/octo/app')).toEqual(
      matched('GET', '/repos/{owner}/{repo}', { owner: 'octo', repo: 'app' }),
    );
    expect(match('GET', '/REPOS/Octo/App/ISSUES/7')).toEqual(
      matched('GET', '/repos/{owner}/{repo}/issues/{issue_number}', {
        owner: 'Octo',
        repo: 'App',
        issue_number: '7',
      }),
    );
    expect(match('GET', '/USER/Repos?x=1')).toEqual(matched('GET', '/user/repos', {}));
  });

  it('refuses a static segment in other letter case where a parameter may also stand', () => {
    // Case-insensitive routers take `/orgs/x/ACTIONS/hosted-runners` to the hosted-runners route,
    // case-sensitive ones to `{security_product}/{enablement}`: deciding either would be a guess.
    const result = match('POST', '/orgs/octo/ACTIONS/hosted-runners');
    expect(result.kind).toBe('bad_path');
    expect(result.kind === 'bad_path' && result.message).toContain('`ACTIONS`');
    expect(match('POST', '/orgs/octo/Actions%20x/hosted-runners')).toEqual(
      matched('POST', '/orgs/{org}/{security_product}/{enablement}', {
        org: 'octo',
        security_product: 'Actions x',
        enablement: 'hosted-runners',
      }),
    );
  });

  it('compares static segments raw, never percent-decoded', () => {
    expect(match('GET', '/rep%6Fs/octo/app').kind).toBe('bad_path');
    // A router that decodes first would read `%61ctions` as the static `actions`, one that does not
    // as a parameter: the engine refuses to guess.
    expect(match('POST', '/orgs/octo/%61ctions/hosted-runners')).toEqual({
      kind: 'bad_path',
      message: 'path segment `%61ctions` percent-encodes the unreserved character `%61`; send it unencoded',
    });
    expect(match('GET', '/users/%7Eoctocat').kind).toBe('bad_path');
    expect(match('GET', '/users/a%2Db').kind).toBe('bad_path');
    // Reserved and non-ASCII characters are still decoded into parameters.
    expect(match('GET', '/users/a%20b%C3%A9')).toEqual(
      matched('GET', '/users/{username}', { username: 'a bé' }),
    );
  });

  it('settles a contest at the earliest position where the templates differ', () => {
    const contest = compileRoutes([
      { method: 'GET', template: '/{a}/x/y' },
      { method: 'GET', template: '/x/{b}/y' },
      { method: 'GET', template: '/x/x/{c}' },
      { method: 'GET', template: '/x/{d}', multiSegment: 'd' },
    ]);
    const route = (target: string): number | string => {
      const result = matchRoute(contest, 'GET', target);
      return result.kind === 'matched' ? result.route : result.kind;
    };
    expect(route('/x/x/y')).toBe(2); // static, static beats static, param
    expect(route('/x/q/y')).toBe(1); // static, param, static
    expect(route('/x/q/z')).toBe(3); // only the multi-segment route is left
    expect(route('/q/x/y')).toBe(0);
    expect(route('/q/x/z')).toBe('no_match');
  });

  it('answers no_match for too few or too many segments', () => {
    expect(match('GET', '/repos/octo')).toEqual({ kind: 'no_match' });
    expect(match('GET', '/repos/octo/app/issues/7/comments')).toEqual({ kind: 'no_match' });
    expect(match('GET', '/nothing/here')).toEqual({ kind: 'no_match' });
  });
});

describe('matchRoute: multi-segment parameters', () => {
  it('gives a file path of several segments to {path}', () => {
    expect(match('GET', '/repos/octo/app/contents/docs/guide/a.md')).toEqual(
      matched('GET', '/repos/{owner}/{repo}/contents/{path}', {
        owner: 'octo',
        repo: 'app',
        path: 'docs/guide/a.md',
      }),
    );
    expect(match('PUT', '/repos/octo/app/contents/README.md')).toEqual(
      matched('PUT', '/repos/{owner}/{repo}/contents/{path}', {
        owner: 'octo',
        repo: 'app',
        path: 'README.md',
      }),
    );
  });

  it('reads %2F inside a multi-segment parameter as a slash', () => {
    expect(match('GET', '/repos/octo/app/contents/docs%2Fa.md')).toEqual(
      matched('GET', '/repos/{owner}/{repo}/contents/{path}', {
        owner: 'octo',
        repo: 'app',
        path: 'docs/a.md',
      }),
    );
    expect(match('GET', '/repos/octo/app/git/ref/heads%2ffeature/x')).toEqual(
      matched('GET', '/repos/{owner}/{repo}/git/ref/{ref}', {
        owner: 'octo',
        repo: 'app',
        ref: 'heads/feature/x',
      }),
    );
  });

  it('needs at least one segment for a multi-segment parameter', () => {
    expect(match('GET', '/repos/octo/app/readme')).toEqual(
      matched('GET', '/repos/{owner}/{repo}/readme', { owner: 'octo', repo: 'app' }),
    );
    expect(match('GET', '/repos/octo/app/readme/docs/api')).toEqual(
      matched('GET', '/repos/{owner}/{repo}/readme/{dir}', { owner: 'octo', repo: 'app', dir: 'docs/api' }),
    );
    expect(match('GET', '/repos/octo/app/contents')).toEqual({ kind: 'no_match' });
    expect(match('PATCH', '/repos/octo/app/git/refs')).toEqual({ kind: 'no_match' });
  });

  it('tells git/refs (POST) from git/refs/{ref} (PATCH, DELETE) by method and length', () => {
    expect(match('POST', '/repos/octo/app/git/refs')).toEqual(
      matched('POST', '/repos/{owner}/{repo}/git/refs', { owner: 'octo', repo: 'app' }),
    );
    expect(match('PATCH', '/repos/octo/app/git/refs/heads/main')).toEqual(
      matched('PATCH', '/repos/{owner}/{repo}/git/refs/{ref}', {
        owner: 'octo',
        repo: 'app',
        ref: 'heads/main',
      }),
    );
    expect(match('DELETE', '/repos/octo/app/git/refs/tags/v1.0')).toEqual(
      matched('DELETE', '/repos/{owner}/{repo}/git/refs/{ref}', {
        owner: 'octo',
        repo: 'app',
        ref: 'tags/v1.0',
      }),
    );
    expect(match('GET', '/repos/octo/app/git/matching-refs/heads/feat')).toEqual(
      matched('GET', '/repos/{owner}/{repo}/git/matching-refs/{ref}', {
        owner: 'octo',
        repo: 'app',
        ref: 'heads/feat',
      }),
    );
    expect(match('POST', '/repos/octo/app/git/refs/heads/main')).toEqual({ kind: 'no_match' });
  });

  it('matches a path of ten thousand segments in one pass', () => {
    const deep = Array.from({ length: 10_000 }, (_, i) => `d${i}`).join('/');
    const result = matchRoute(tree, 'GET', `/repos/octo/app/contents/${deep}`);
    expect(result.kind === 'matched' && result.params.path).toBe(deep);
  });

  it('answers bad_path for a multi-segment value with a dot or empty segment once decoded', () => {
    expectBadPath('GET', '/repos/octo/app/contents/a%2F..%2Fsecret', 'a%2F..%2Fsecret');
    expectBadPath('GET', '/repos/octo/app/contents/docs/..%2Fx', '..%2Fx');
    expectBadPath('GET', '/repos/octo/app/contents/docs%2F', 'docs%2F');
    expectBadPath('GET', '/repos/octo/app/contents/%2Fetc', '%2Fetc');
    expectBadPath('GET', '/repos/octo/app/git/ref/heads/.%2Fmain', '.%2Fmain');
  });
});

describe('matchRoute: parameter values', () => {
  it('percent-decodes parameter values after matching', () => {
    expect(match('GET', '/repos/octo/app/issues/%237')).toEqual(
      matched('GET', '/repos/{owner}/{repo}/issues/{issue_number}', {
        owner: 'octo',
        repo: 'app',
        issue_number: '#7',
      }),
    );
    expect(match('GET', '/users/Oct%C3%B6%20cat')).toEqual(
      matched('GET', '/users/{username}', { username: 'Octö cat' }),
    );
    expect(match('GET', '/repos/octo/app/contents/%F0%9F%98%80.txt')).toEqual(
      matched('GET', '/repos/{owner}/{repo}/contents/{path}', { owner: 'octo', repo: 'app', path: '😀.txt' }),
    );
  });

  it('keeps the case of owner, repo and org', () => {
    expect(match('GET', '/repos/OctoCat/Hello-World')).toEqual(
      matched('GET', '/repos/{owner}/{repo}', { owner: 'OctoCat', repo: 'Hello-World' }),
    );
    expect(match('PATCH', '/orgs/GitHub')).toEqual(matched('PATCH', '/orgs/{org}', { org: 'GitHub' }));
  });

  it('strips a trailing .git from repo only', () => {
    expect(match('GET', '/repos/octo/app.git')).toEqual(
      matched('GET', '/repos/{owner}/{repo}', { owner: 'octo', repo: 'app' }),
    );
    expect(match('GET', '/repos/octo/app%20x.git/readme')).toEqual(
      matched('GET', '/repos/{owner}/{repo}/readme', { owner: 'octo', repo: 'app x' }),
    );
    expect(match('GET', '/repos/octo/app.git.git')).toEqual(
      matched('GET', '/repos/{owner}/{repo}', { owner: 'octo', repo: 'app.git' }),
    );
    expect(match('POST', '/repos/octo/tpl.git/generate')).toEqual(
      matched('POST', '/repos/{template_owner}/{template_repo}/generate', {
        template_owner: 'octo',
        template_repo: 'tpl.git',
      }),
    );
    expect(match('GET', '/users/octo.git')).toEqual(
      matched('GET', '/users/{username}', { username: 'octo.git' }),
    );
  });

  it('answers bad_path for a repo named exactly .git', () => {
    expectBadPath('GET', '/repos/octo/.git', '.git');
  });

  it('allows an encoded slash in environment_name', () => {
    expect(match('GET', '/repos/octo/app/environments/prod%2Feu/variables/REGION')).toEqual(
      matched('GET', '/repos/{owner}/{repo}/environments/{environment_name}/variables/{name}', {
        owner: 'octo',
        repo: 'app',
        environment_name: 'prod/eu',
        name: 'REGION',
      }),
    );
  });

  it('answers bad_path for an encoded slash outside environment_name', () => {
    expectBadPath('GET', '/repos/octo/app/environments/prod/variables/A%2FB', 'A%2FB');
    expectBadPath('GET', '/repos/octo%2fx/app', 'octo%2fx');
    expectBadPath('POST', '/orgs/octo/a%2Fb/enable', 'a%2Fb');
  });

  it('answers bad_path for an encoded environment_name with dot or empty pieces', () => {
    expectBadPath('GET', '/repos/octo/app/environments/prod%2F..%2Fx/variables/A', 'prod%2F..%2Fx');
    expectBadPath('GET', '/repos/octo/app/environments/prod%2F/variables/A', 'prod%2F');
  });

  it('answers no_match for a path that matches nothing, even with an encoded slash', () => {
    expect(match('GET', '/nothing/a%2Fb')).toEqual({ kind: 'no_match' });
    expect(match('GET', '/repos/octo/app/unknown%2Fthing')).toEqual({ kind: 'no_match' });
  });

  it('builds params that inherit nothing', () => {
    for (const path of ['/users/constructor', '/users/a%20b']) {
      const result = matchRoute(tree, 'GET', path);
      expect(result.kind).toBe('matched');
      if (result.kind !== 'matched') return;
      for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__'])
        expect(name in result.params).toBe(false);
      expect(Object.getPrototypeOf(Object.getPrototypeOf(result.params))).toBeNull();
    }
    const protoTree = compileRoutes([{ method: 'GET', template: '/x/{__proto__}' }]);
    const proto = matchRoute(protoTree, 'GET', '/x/polluted');
    expect(proto.kind === 'matched' && Object.keys(proto.params)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('matchRoute: bad paths', () => {
  it('answers bad_path for a target that does not start with a slash', () => {
    for (const target of ['', 'repos/o/r', '*', 'http://host/repos/o/r', '?x=1', '#f']) {
      const result = matchRoute(tree, 'GET', target);
      expect(result.kind, target).toBe('bad_path');
    }
  });

  it('answers bad_path for dot segments, raw or percent-encoded', () => {
    expectBadPath('GET', '/repos/octo/app/contents/../../x', '..');
    expectBadPath('GET', '/repos/./app', '.');
    expectBadPath('GET', '/repos/octo/app/contents/%2e%2E/x', '%2e%2E');
    expectBadPath('GET', '/repos/octo/app/contents/.%2e', '.%2e');
    expectBadPath('GET', '/repos/octo/%2E', '%2E');
  });

  it('reads repeated slashes as one and drops a trailing slash, as routers that ignore them do', () => {
    for (const target of ['/user//repos', '/user/repos/', '//user/repos', '/user/repos//?page=2'])
      expect(match('GET', target), target).toEqual(matched('GET', '/user/repos', {}));
    expect(match('GET', '//')).toEqual(matched('GET', '/', {}));
    expect(match('GET', '/repos/octo//app.git/contents/docs//a.md/')).toEqual(
      matched('GET', '/repos/{owner}/{repo}/contents/{path}', {
        owner: 'octo',
        repo: 'app',
        path: 'docs/a.md',
      }),
    );
    expectBadPath('GET', '/repos/octo//app/contents/../x', '..');
  });

  it('refuses an empty segment that routers reading it as an empty parameter route elsewhere', () => {
    // find-my-way runs `/repos/{owner}/{repo}/issues/{issue_number}` for `.../issues/` (an empty
    // issue_number), Express and Hono `/repos/{owner}/{repo}/issues`: no single answer is right.
    expectBadPath('GET', '/repos/octo/app/issues/', '/repos/octo/app/issues/');
    expectBadPath('GET', '/repos/octo/app/issues/?x=1', '/repos/octo/app/issues/');
    expect(match('POST', '/repos/octo/app/issues/')).toEqual(
      matched('POST', '/repos/{owner}/{repo}/issues', { owner: 'octo', repo: 'app' }),
    );
  });

  it('answers bad_path for backslashes, raw or encoded', () => {
    expectBadPath('GET', '/repos/octo/app/contents/a\\b', 'a\\b');
    expectBadPath('GET', '/repos/octo/app/contents/a%5Cb', 'a%5Cb');
    expectBadPath('GET', '/repos/octo/app/contents/a%5cb', 'a%5cb');
  });

  it('answers bad_path for control characters, raw or encoded, shown on one line', () => {
    expectBadPath('GET', '/users/a%00', 'a%00');
    expectBadPath('GET', '/users/a%1F', 'a%1F');
    expectBadPath('GET', '/users/a%7f', 'a%7f');
    expectBadPath('GET', '/users/a\tb', 'a%09b');
    expectBadPath('GET', '/users/a\nb', 'a%0Ab');
    expectBadPath('GET', '/users/a\x7fb', 'a%7Fb');
  });

  it('answers bad_path for malformed percent-encoding', () => {
    expectBadPath('GET', '/users/%zz', '%zz');
    expectBadPath('GET', '/users/ab%4', 'ab%4');
    expectBadPath('GET', '/users/ab%', 'ab%');
    expectBadPath('GET', '/users/%%41', '%%41');
  });

  it('answers bad_path for invalid UTF-8 once decoded', () => {
    expectBadPath('GET', '/users/%FF', '%FF');
    expectBadPath('GET', '/users/%C3%28', '%C3%28');
    expectBadPath('GET', '/users/%ED%A0%80', '%ED%A0%80');
    expectBadPath('GET', '/users/%C3', '%C3');
    expectBadPath('GET', '/users/a\ud800', 'a\\ud800');
  });

  it('checks the raw path before matching, so an unknown path can still be a bad path', () => {
    expectBadPath('GET', '/nothing/..', '..');
    expectBadPath('BREW', '/x/%zz', '%zz');
  });
});

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

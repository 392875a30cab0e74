import { describe, expect, it } from 'vitest';
import { compileRoutes, matchRoute } from '../../src/routes/route-tree.js';
import { expectBadPath, match, matched, tree } from '../support/route-tree-cases.js';

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

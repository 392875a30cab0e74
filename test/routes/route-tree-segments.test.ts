import { describe, expect, it } from 'vitest';
import { compileRoutes, matchRoute } from '../../src/routes/route-tree.js';
import { expectBadPath, match, matched, tree } from '../support/route-tree-cases.js';

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

  // Found by a new user's trial: Fastify with `caseSensitive: false` decodes, then lower-cases the
  // path, and U+212A KELVIN SIGN lower-cases to `k`, so `%E2%84%AAeys` ran its `keys` route while
  // the gate saw no endpoint (passed through, or kept away by \`skip\`). U+017F LONG S matches \`s\`
  // under a regular expression's \`iu\` flags. Both are refused wherever they stand, encoded or not.
  it('refuses the two characters a router folds into an ASCII letter, encoded or raw', () => {
    const cases = [
      ['/repos/o/r/%E2%84%AAeys', '%E2%84%AAeys', 'U+212A KELVIN SIGN', 'k'],
      ['/repos/o/r/\u212Aeys', '\u212Aeys', 'U+212A KELVIN SIGN', 'k'],
      ['/repos/o/r/hoo%E2%84%AA%C5%BF', 'hoo%E2%84%AA%C5%BF', 'U+212A KELVIN SIGN', 'k'],
      ['/repos/o/r/i%C5%BFsues', 'i%C5%BFsues', 'U+017F LONG S', 's'],
      ['/users/octo%C5%BF', 'octo%C5%BF', 'U+017F LONG S', 's'],
    ] as const;
    for (const [target, segment, name, letter] of cases)
      expect(match('GET', target), target).toEqual({
        kind: 'bad_path',
        message: `path segment \`${segment}\` contains ${name}, which case-insensitive routers read as the letter \`${letter}\`; send the letter`,
      });
    // Their neighbours that fold to no ASCII letter stay parameter text (U+0130, U+0131, U+212B).
    expect(match('GET', '/users/%C4%B0%C4%B1%E2%84%AB')).toEqual(
      matched('GET', '/users/{username}', { username: '\u0130\u0131\u212b' }),
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

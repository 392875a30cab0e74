import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../src/policy/authorize.js';
import { loadTables } from '../../src/tables/load-tables.js';
import { parseSourceDocument } from '../../src/tables/yaml-document.js';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-overlay-'));
function overlay(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('overlays', () => {
  it('state a fact the seeds leave not shown, and the decision becomes certain', () => {
    const file = overlay(
      'migrations.yaml',
      'version: 1\nendpoints:\n  GET /orgs/{org}/migrations:\n    classic: [[admin:org]]\n',
    );
    const policy = createPolicy(loadTables([file]));
    const decision = policy.authorize(
      { method: 'GET', path: '/orgs/acme/migrations' },
      { kind: 'classic', scopes: ['admin:org'] },
      { organizationOwner: true },
    );
    expect(decision).toMatchObject({ allowed: true, certain: true });
    // Fields the overlay does not name keep their shipped values.
    expect(policy.tables.endpoints.find((e) => e.key === 'GET /orgs/{org}/migrations')).toMatchObject({
      ownerOnly: true,
      fineGrained: null,
    });
  });

  it('add endpoints of their own', () => {
    const file = overlay(
      'wiki.yaml',
      'version: 1\nendpoints:\n  GET /repos/{owner}/{repo}/wiki/{page}:\n    fine_grained: [{contents: read}]\n',
    );
    const policy = createPolicy(loadTables([file]));
    const token = {
      kind: 'fine-grained' as const,
      permissions: { contents: 'read' as const },
      repositories: 'all' as const,
    };
    expect(policy.authorize({ method: 'GET', path: '/repos/a/b/wiki/Home' }, token)).toMatchObject({
      allowed: true,
      params: { page: 'Home' },
    });
  });

  it('fail with every problem of every file, each as file:line:col: message (hint)', () => {
    const first = overlay(
      'bad1.yaml',
      'version: 1\nendpoints:\n  GET /x:\n    fine_grained: [{isues: read}]\n',
    );
    const second = overlay('bad2.yaml', 'version: 1\nendpoints:\n  GET /y:\n    classic: not_shown\n');
    let thrown: unknown;
    try {
      loadTables([first, second]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'TOLLGATE_INVALID_TABLE' });
    const details = (thrown as { details: string[] }).details;
    expect(details).toEqual([
      expect.stringMatching(
        /bad1\.yaml:4:21: unknown permission `isues` \(did you mean `issues`\?\) \(permissions are listed in data\/scopes\.yaml\)/,
      ),
      expect.stringMatching(/bad2\.yaml:3:3: endpoint `GET \/y` has no `fine_grained` requirement/),
    ]);
  });

  it('refuse duplicate keys and malformed YAML with a position', () => {
    const duplicate = parseSourceDocument('version: 1\nendpoints:\n  GET /x: {}\n  GET /x: {}\n', 'dup.yaml');
    expect(duplicate.issues[0]).toMatchObject({ code: 'yaml_syntax', source: { file: 'dup.yaml', line: 4 } });
    const broken = parseSourceDocument('version: 1\nendpoints: [\n', 'broken.yaml');
    expect(broken.issues[0]?.source.file).toBe('broken.yaml');
    expect(broken.issues[0]?.source.line).toBeGreaterThan(0);
  });

  it('report a route the matcher refuses where the overlay wrote it', () => {
    // Same method and position as `PATCH /repos/{owner}/{repo}/issues/{issue_number}`, other parameter name.
    const file = overlay(
      'clash.yaml',
      'version: 1\nendpoints:\n  PATCH /repos/{owner}/{repo}/issues/{number}:\n    fine_grained: [{issues: write}]\n',
    );
    expect(() => loadTables([file])).toThrow(
      /clash\.yaml:3:3: route table: `PATCH \/repos\/\{owner\}\/\{repo\}\/issues\/\{number\}`/,
    );
  });
});

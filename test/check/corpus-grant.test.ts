// The grant `tollgate check` computes for each corpus project, pinned: each expectations.yaml records
// what check prints (job by job, with the `permissions:` block of a workflow job), checked by hand
// against data/permissions.yaml and the seeds, with the seed fact behind each difference from what
// the authors document. A change to a grant fails here until the recorded grant is changed with it.
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../support/corpus.js';
import { computedGrant, grantArgs } from '../support/corpus-grant.js';

const corpus = loadCorpus();

describe('the grant check computes for each corpus project', () => {
  for (const project of corpus) {
    it(`${project.id}: is the grant recorded in its expectations`, async () => {
      expect(await computedGrant(project)).toEqual(project.grant.computed);
    });
  }

  it('judges workflows job by job, a step token with its own kind, and other code with the project kind', () => {
    const byId = new Map(corpus.map((project) => [project.id, project]));
    const electron = grantArgs(byId.get('electron__electron')!);
    expect(electron).not.toContain('--kind');
    expect(
      electron.slice(electron.indexOf('--step-token-kind'), electron.indexOf('--step-token-kind') + 2),
    ).toEqual(['--step-token-kind', 'app-installation']);
    const stale = grantArgs(byId.get('probot__stale')!);
    expect(stale.slice(stale.indexOf('--kind'), stale.indexOf('--kind') + 2)).toEqual([
      '--kind',
      'app-installation',
    ]);
  });

  it('names a seed fact or an endpoint behind every difference from what the authors document', () => {
    for (const project of corpus)
      for (const line of project.grant.differences)
        expect(line, `${project.id}: ${line}`).toMatch(/seed|00[01]|\/|document|partial|copied|over-grant/);
  });
});

// A small table in the shipped format, for evaluator tests that must not depend on the seeds.
import { compileTablesOrThrow } from '../../src/policy/compile-tables.js';
import type { PolicyTables, RawPermissionsTable, RawScopesTable } from '../../src/policy/tables.js';

export const smallScopes: RawScopesTable = {
  version: 1,
  scopes: {
    repo: { implies: ['public_repo', 'repo:status'] },
    public_repo: { implies: [] },
    'repo:status': { implies: [] },
    'admin:org': { implies: ['write:org'] },
    'write:org': { implies: ['read:org'] },
    'read:org': { implies: [] },
    notifications: { implies: [] },
  },
  permissions: {
    issues: { name: 'Issues', owner: 'repository', levels: ['read', 'write'] },
    pull_requests: { name: 'Pull requests', owner: 'repository', levels: ['read', 'write'] },
    contents: { name: 'Contents', owner: 'repository', levels: ['read', 'write'] },
    metadata: { name: 'Metadata', owner: 'repository', levels: ['read'] },
    organization_variables: { name: 'Variables', owner: 'organization', levels: ['read', 'write'] },
  },
};

export const smallPermissions: RawPermissionsTable = {
  version: 1,
  rules: {
    cost: { GET: 1, POST: 5, PUT: 5, DELETE: 5 },
    content: { methods: ['POST'], last_segments: ['issues', 'comments'] },
    multi_segment_params: [{ before: 'contents', param: 'path' }],
    encoded_slash_params: ['environment_name'],
  },
  defaults: {
    classic: 'not_shown',
    tokens: ['classic', 'oauth-app', 'fine-grained', 'app-user', 'app-installation'],
  },
  endpoints: {
    'GET /repos/{owner}/{repo}/issues/events/{event_id}': {
      fine_grained: [{ issues: 'read' }, { pull_requests: 'read' }],
      public: true,
    },
    'POST /repos/{owner}/{repo}/issues': { fine_grained: [{ issues: 'write' }], classic: [['repo']] },
    'PUT /repos/{owner}/{repo}/contents/{path}': { fine_grained: [{ contents: 'write' }], additional: true },
    'GET /repos/{owner}/{repo}/environments/{environment_name}/variables': {
      fine_grained: [{ contents: 'read' }],
    },
    'PUT /orgs/{org}/actions/variables/{name}/repositories/{repository_id}': {
      fine_grained: [{ organization_variables: 'write', metadata: 'read' }],
      classic: [['admin:org']],
      classic_private: [['admin:org', 'repo']],
      tokens_shown: false,
    },
    'GET /notifications': {
      fine_grained: 'none',
      classic: [['notifications'], ['repo']],
      tokens: ['classic'],
    },
    'GET /orgs/{org}/migrations': {
      fine_grained: 'none',
      tokens: ['classic', 'oauth-app'],
      owner_only: true,
    },
    'POST /repos/{owner}/{repo}/transfer': {
      fine_grained: [{ contents: 'write' }],
      tokens: ['classic', 'oauth-app', 'app-user'],
    },
  },
};

export function smallTables(): PolicyTables {
  return compileTablesOrThrow({
    permissions: { file: 'small-permissions', value: smallPermissions },
    scopes: { file: 'small-scopes', value: smallScopes },
  });
}

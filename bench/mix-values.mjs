// Concrete parameter values for the request mix: owners and repositories in several letter
// cases, numbers, branches, file paths, refs and SHAs, each picked by the mix's seeded PRNG.

/** One element of `list`, chosen by `rng`. */
export const pick = (rng, list) => list[Math.floor(rng() * list.length)];

export const OWNERS = [
  'acme',
  'Acme',
  'octo-org',
  'Octo-Org',
  'hello-world',
  'mona',
  'example-co',
  'tollgate-dev',
];
export const REPOS = ['app', 'api-server', 'docs', 'Website', 'infra', 'design-system', 'cli'];
const USERS = ['octocat', 'mona-lisa', 'hubot', 'jdoe', 'a-reviewer'];
const TEAMS = ['platform', 'core-reviewers', 'security', 'docs-team'];
const BRANCHES = ['main', 'develop', 'feature-login', 'release-2.4', 'hotfix-17'];
const FILES = [
  'src/index.ts',
  'docs/guide/intro.md',
  'packages/core/src/router.ts',
  'lib/utils.js',
  '.service/workflows/ci.yml',
  'README.md',
];
const DIRS = ['docs', 'packages/core', 'docs/api/v2'];
const GIT_REFS = ['heads/main', 'heads/feature/login-form', 'tags/v1.2.0', 'heads/release/2.4'];
const SHAS = [
  '6dcb09b5b57875f334f61aebed695e2e4193db5e',
  'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
  '7638417db6d59f3c431d3e1f261cc637155684cd',
];
export const QUERIES = [
  '?per_page=50',
  '?page=2&per_page=100',
  '?state=open&sort=updated',
  '?ref=main',
  '?q=bug',
];

function numberValue(rng) {
  return String(1 + Math.floor(rng() * 99_999));
}

/** A realistic value for `{name}` in `template`; multi-segment params span 2-3 segments. */
export function paramValue(name, template, rng) {
  switch (name) {
    case 'org':
    case 'owner':
    case 'template_owner':
    case 'repo_owner':
      return pick(rng, OWNERS);
    case 'repo': {
      const repo = pick(rng, REPOS);
      return rng() < 0.2 ? `${repo}.git` : repo;
    }
    case 'template_repo':
    case 'repo_name':
      return pick(rng, REPOS);
    case 'enterprise':
      return pick(rng, ['acme-corp', 'octo-enterprise']);
    case 'username':
      return pick(rng, USERS);
    case 'team_slug':
      return pick(rng, TEAMS);
    case 'branch':
      return pick(rng, BRANCHES);
    case 'path':
      return pick(rng, FILES);
    case 'dir':
      return pick(rng, DIRS);
    case 'ref':
      if (/\/git\/(ref|refs|matching-refs)\/\{ref\}$/.test(template)) return pick(rng, GIT_REFS);
      return pick(rng, ['main', 'v1.4.0', SHAS[0], 'develop']);
    case 'basehead':
      return pick(rng, ['main...feature-login', 'v1.0.0...v1.1.0', 'octocat:main...acme:develop']);
    case 'commit_sha':
    case 'file_sha':
    case 'tag_sha':
    case 'tree_sha':
      return pick(rng, SHAS);
    case 'subject_digest':
      return `sha256:${pick(rng, SHAS)}${pick(rng, SHAS).slice(0, 24)}`;
    case 'environment_name':
      return pick(rng, ['production', 'staging', 'preview%2Feu-west', 'github-pages']);
    case 'name':
      return template.includes('/labels/')
        ? pick(rng, ['bug', 'good%20first%20issue', 'enhancement'])
        : pick(rng, ['NODE_ENV', 'DEPLOY_TARGET', 'API_URL']);
    case 'language':
      return pick(rng, ['javascript', 'python', 'go']);
    case 'archive_format':
      return 'zip';
    case 'security_product':
      return pick(rng, ['dependency_graph', 'secret_scanning', 'dependabot_alerts']);
    case 'enablement':
      return pick(rng, ['enable_all', 'disable_all']);
    case 'cluster':
      return pick(rng, ['prod-eu-1', 'staging-us']);
    case 'tag':
      return pick(rng, ['v1.0.0', 'v2.3.1']);
    case 'key_id':
    case 'advisory_id':
      return name === 'advisory_id' ? 'GHSA-xxxx-4vj5-9qfp' : numberValue(rng);
    default:
      if (name.endsWith('_id') || name.endsWith('_number')) return numberValue(rng);
      return `${name.replace(/_/g, '-')}-${Math.floor(rng() * 9)}`;
  }
}

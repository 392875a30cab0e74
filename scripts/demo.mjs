// `npm run demo`: the built CLI on the bundled examples, each command shown before its output.
import { spawnSync } from 'node:child_process';

const runs = [
  [
    'explain',
    'GET',
    '/repos/acme/app/issues/events/7',
    '--kind',
    'fine-grained',
    '--permission',
    'contents=read',
  ],
  ['explain', 'GET', '/repos/acme/app/contents/docs/guide.md', '--token', 'examples/tokens/ci-reader.yaml'],
  ['explain', 'GET', '/repos/acme/secret/contents/README.md', '--token', 'examples/tokens/ci-reader.yaml'],
  ['explain', 'POST', '/repos/acme/app/issues', '--token', 'examples/tokens/triage-bot.yaml'],
  [
    'explain',
    'PUT',
    '/orgs/acme/actions/variables/REGION/repositories/42',
    '--token',
    'examples/tokens/classic-admin.yaml',
  ],
  ['explain', 'GET', '/notifications', '--token', 'examples/tokens/triage-bot.yaml'],
  ['explain', 'GET', '/repos/acme/app/issues/events', '--visibility', 'public'],
  [
    'explain',
    'GET',
    '/repos/acme/site/contents/index.html',
    '--visibility',
    'public',
    '--overlay',
    'examples/overlay-public-contents.yaml',
  ],
  ['explain', 'GET', '/repos/acme/app/../secrets', '--kind', 'classic', '--scope', 'repo'],
  ['limits', '--kind', 'app-installation', '--repositories', '50', '--users', '30'],
  ['check', 'examples/ci/bot', '--token', 'examples/ci/bot-token.yaml'],
  ['check', 'examples/ci/workflows/triage.yml'],
  ['check', 'examples/ci/calls.yaml', '--kind', 'fine-grained'],
  ['check', 'examples/ci/workflows/triage.yml', '--format', 'github'],
  ['simulate', 'examples/sim/nightly-sync.yaml', '--recommend', '--html', 'nightly-sync.html'],
  [
    'validate',
    'data/permissions.yaml',
    'data/scopes.yaml',
    'data/limits.yaml',
    'examples/overlay-public-contents.yaml',
    'examples/tokens/ci-reader.yaml',
  ],
];

let failures = 0;
for (const args of runs) {
  process.stdout.write(`\n$ tollgate ${args.join(' ')}\n`);
  const result = spawnSync(process.execPath, ['dist/cli/bin.js', ...args], { encoding: 'utf8' });
  process.stdout.write(result.stdout);
  process.stdout.write(result.stderr);
  // explain exits 1 for a deny; anything else above 1 is a failure of the demo itself.
  if (result.status === null || result.status > 1) failures++;
}
process.stdout.write(`\n${runs.length} commands run${failures > 0 ? `, ${failures} failed` : ''}\n`);
process.exitCode = failures > 0 ? 1 : 0;

// `npm run demo:server`: the demo server on port 3000 (or $PORT), with tokens to try it with.
import { startDemoServer } from './demo-server.js';
import { DEMO_TOKENS } from './demo-tokens.js';

// `npm run demo:server -- --redis redis://127.0.0.1:6379`: the limits in Redis, shared by instances.
const at = process.argv.indexOf('--redis');
const redis = at >= 0 ? process.argv[at + 1] : undefined;
if (at >= 0 && (redis === undefined || !/^rediss?:\/\//.test(redis))) {
  console.error('demo:server: `--redis` takes a URL, e.g. --redis redis://127.0.0.1:6379');
  process.exit(2);
}
const server = await startDemoServer({ port: Number(process.env.PORT ?? 3000), ...(redis === undefined ? {} : { redis }) });
console.log(`tollgate demo server on ${server.url}, limits ${redis === undefined ? 'in memory' : `in Redis at ${redis}`} (Ctrl-C to stop)\n`);
console.log('tokens (send as `Authorization: Bearer <secret>`):');
for (const [secret, token] of Object.entries(DEMO_TOKENS)) {
  const grants = 'scopes' in token ? `scopes ${token.scopes.join(', ')}` : 'permissions' in token ? `permissions ${Object.entries(token.permissions).map(([slug, level]) => `${slug}=${level}`).join(', ')}` : '';
  console.log(`  ${secret.padEnd(28)} ${token.kind}, ${grants}`);
}
console.log(`
try:
  curl -i ${server.url}/repos/acme/app/issues/events -H 'Authorization: Bearer demo-issues-reader'
  curl -i ${server.url}/repos/acme/other/issues/events -H 'Authorization: Bearer demo-issues-reader'   # 404: not in its selection
  curl -i ${server.url}/repos/acme/app/actions/variables -H 'Authorization: Bearer demo-issues-reader'  # 403: needs variables=read
  curl -i -X POST ${server.url}/repos/acme/app/actions/variables -H 'Authorization: Bearer demo-variables-admin' -d '{"name":"REGION","value":"eu"}'
  curl -i ${server.url}/notifications -H 'Authorization: Bearer demo-classic-notifications'
  curl -i ${server.url}/rate_limit -H 'Authorization: Bearer demo-installation'
  curl -i ${server.url}/repos/acme/app/issues/events                                                # anonymous: 60 per hour per address`);

// `npm run demo:server`: the demo server on port 3000 (or $PORT), with tokens to try it with.
import { startDemoServer } from './demo-server.js';
import { DEMO_TOKENS } from './demo-tokens.js';

const server = await startDemoServer({ port: Number(process.env.PORT ?? 3000) });
console.log(`tollgate demo server on ${server.url} (Ctrl-C to stop)\n`);
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

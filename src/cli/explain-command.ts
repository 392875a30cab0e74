/** `tollgate explain METHOD PATH`: decide one request and say why. */

import {
  createPolicy,
  type Decision,
  formatAcceptedPermissions,
  HTTP_METHODS,
  shippedTables,
} from '../policy.js';
import { loadTables } from '../tables.js';
import { oneOf, parseCommandArgs } from './args.js';
import { type Command, EXIT, UsageError } from './io.js';
import { tokenFromFlags } from './token-flags.js';

const HELP = `usage: tollgate explain METHOD PATH [options]

  --token FILE               token file (YAML/JSON: kind, scopes or permissions, repositories)
  --kind K                   token kind: classic, fine-grained, app-user, app-installation,
                             oauth-app, workflow, client-credentials, anonymous (default)
  --scope S                  a classic scope (repeatable)
  --permission slug=level    a fine-grained permission (repeatable)
  --repository owner/repo    the token's repository selection (repeatable; default all)
  --visibility V             public or private (default private: the case that needs permissions)
  --owner                    the caller owns the organization
  --api-version V            the X-Service-Api-Version header (default: not sent)
  --overlay FILE             apply an overlay table (repeatable)
  --json                     print the Decision as JSON

example:
  tollgate explain GET /repos/acme/app/issues/events/7 --kind fine-grained --permission contents=read

exit: 0 allowed, 1 denied, 2 bad input`;

function requirementText(decision: Decision): string[] {
  const lines: string[] = [];
  const { fineGrained, classic } = decision.requirement;
  if (fineGrained !== null)
    lines.push(`fine-grained  ${formatAcceptedPermissions(fineGrained) || '(none needed)'}`);
  if (classic !== null)
    lines.push(`classic       ${classic.map((a) => a.join(' + ') || '(no scope)').join('  or  ')}`);
  return lines;
}

function render(method: string, path: string, decision: Decision): string {
  const rows: [string, string][] = [
    [
      'decision',
      `${decision.allowed ? 'allow' : 'deny'} ${decision.status} ${decision.reason}${decision.certain ? '' : ' (not certain)'}`,
    ],
    ['why', decision.message],
  ];
  if (decision.endpoint !== null) rows.push(['endpoint', decision.endpoint]);
  const params = Object.entries(decision.params).map(([k, v]) => `${k}=${v}`);
  if (params.length > 0) rows.push(['params', params.join(' ')]);
  for (const line of requirementText(decision)) rows.push(['requires', line]);
  const addition = decision.addition;
  if (addition.kind === 'permissions')
    rows.push([
      'add',
      Object.entries(addition.permissions)
        .map(([s, l]) => `--permission ${s}=${l}`)
        .join(' '),
    ]);
  if (addition.kind === 'scopes') rows.push(['add', addition.scopes.map((s) => `--scope ${s}`).join(' ')]);
  for (const [name, value] of Object.entries(decision.headers)) rows.push(['header', `${name}: ${value}`]);
  return `${method} ${path}\n${rows.map(([k, v]) => `  ${k.padEnd(9)} ${v}`).join('\n')}\n`;
}

export const explainCommand: Command = (args, io) => {
  const { values, positionals } = parseCommandArgs('explain', args, {
    token: { type: 'string' },
    kind: { type: 'string' },
    scope: { type: 'string', multiple: true },
    permission: { type: 'string', multiple: true },
    repository: { type: 'string', multiple: true },
    visibility: { type: 'string' },
    owner: { type: 'boolean' },
    'api-version': { type: 'string' },
    overlay: { type: 'string', multiple: true },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout(`${HELP}\n`);
    return EXIT.ok;
  }
  if (positionals.length !== 2)
    throw new UsageError(
      'explain: expected METHOD PATH, e.g. `tollgate explain GET /repos/acme/app/issues/events`',
    );
  const method = oneOf('method', positionals[0]!.toUpperCase(), HTTP_METHODS);
  const path = positionals[1]!;
  const overlays = (values.overlay as string[] | undefined) ?? [];
  const tables = overlays.length > 0 ? loadTables(overlays) : shippedTables();
  const token = tokenFromFlags(
    {
      token: values.token as string | undefined,
      kind: values.kind as string | undefined,
      scope: values.scope as string[] | undefined,
      permission: values.permission as string[] | undefined,
      repository: values.repository as string[] | undefined,
    },
    tables,
  );
  const visibility = oneOf('visibility', (values.visibility as string | undefined) ?? 'private', [
    'public',
    'private',
  ] as const);
  const apiVersion = values['api-version'] as string | undefined;
  const decision = createPolicy(tables).authorize(
    { method, path, ...(apiVersion === undefined ? {} : { apiVersion }) },
    token,
    { visibility, organizationOwner: values.owner === true },
  );
  io.stdout(values.json ? `${JSON.stringify(decision, null, 2)}\n` : render(method, path, decision));
  return decision.allowed ? EXIT.ok : EXIT.insufficient;
};

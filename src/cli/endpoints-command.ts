/** `tollgate endpoints`: the endpoint table, as text or as documented JSON. */

import { escapeControl } from '../core/escape-control.js';
import {
  type EndpointEntry,
  formatAcceptedPermissions,
  type PolicyTables,
  shippedTables,
} from '../policy.js';
import { loadTables } from '../tables.js';
import { parseCommandArgs } from './args.js';
import { type Command, EXIT } from './io.js';

const HELP = `usage: tollgate endpoints [--json] [--overlay FILE...]

Lists every endpoint of the table. --json prints an array of
{method, path, fine_grained, classic, classic_shown, classic_private, tokens, tokens_shown, public,
 owner_only, additional, cost, content, resource, counts_against_primary, page_size, source}.

  --json                print the table as JSON
  --overlay FILE        apply an overlay table (repeatable)

example:
  tollgate endpoints --json

exit: 0 printed, 2 bad input`;

/** The stable JSON form of one endpoint (`tollgate endpoints --json`). */
export function endpointJson(entry: EndpointEntry) {
  return {
    method: entry.method,
    path: entry.template,
    fine_grained: entry.fineGrained,
    classic: entry.classic.requirement,
    classic_shown: entry.classic.shown,
    classic_private: entry.classicPrivate.requirement,
    tokens: entry.tokens.includes('app-installation') ? [...entry.tokens, 'workflow'] : [...entry.tokens],
    tokens_shown: entry.tokensShown,
    public: entry.public,
    owner_only: entry.ownerOnly,
    additional: entry.additional,
    cost: entry.charge.cost,
    content: entry.charge.content,
    resource: entry.charge.resource,
    counts_against_primary: entry.charge.countsPrimary,
    page_size: entry.pageSize,
    source: entry.source,
  };
}

function textRow(entry: EndpointEntry): string {
  const fine = entry.fineGrained === null ? '-' : formatAcceptedPermissions(entry.fineGrained) || '(nothing)';
  const classic = entry.classic.shown
    ? entry.classic.requirement === null
      ? '-'
      : entry.classic.requirement.map((a) => a.join('+') || '(no scope)').join(', ')
    : 'not shown';
  const flags = [
    entry.additional ? '*' : '',
    entry.public ? 'public' : '',
    entry.ownerOnly ? 'owner' : '',
    entry.charge.content ? 'content' : '',
  ]
    .filter(Boolean)
    .join(',');
  return `${entry.method.padEnd(7)}${entry.template.padEnd(88)} ${fine.padEnd(60)} ${classic.padEnd(24)} ${flags}`;
}

export function listEndpoints(tables: PolicyTables, json: boolean): string {
  if (json) return `${JSON.stringify(tables.endpoints.map(endpointJson), null, 2)}\n`;
  const header = `${'METHOD'.padEnd(7)}${'PATH'.padEnd(88)} ${'FINE-GRAINED'.padEnd(60)} ${'CLASSIC'.padEnd(24)} FLAGS`;
  return `${[header, ...tables.endpoints.map(textRow)].join('\n')}\n${tables.endpoints.length} endpoints (* = needs further permissions not shown)\n`;
}

export const endpointsCommand: Command = (args, io) => {
  const { values, positionals } = parseCommandArgs('endpoints', args, {
    json: { type: 'boolean' },
    overlay: { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout(`${HELP}\n`);
    return EXIT.ok;
  }
  if (positionals.length > 0) {
    io.stderr(
      `tollgate: endpoints: unexpected argument \`${escapeControl(positionals[0]!)}\`; usage: tollgate endpoints [--json]\n`,
    );
    return EXIT.badInput;
  }
  const overlays = (values.overlay as string[] | undefined) ?? [];
  io.stdout(
    listEndpoints(overlays.length > 0 ? loadTables(overlays) : shippedTables(), values.json === true),
  );
  return EXIT.ok;
};

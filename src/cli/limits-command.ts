/** `tollgate limits --kind K`: the rate limits that apply to a caller, each with its algorithm. */

import { COUNTED_PER, callerClassOf, type LimitLine, limitsReport } from '../limits.js';
import { TOKEN_KINDS, type TokenKind } from '../policy.js';
import { oneOf, parseCommandArgs } from './args.js';
import { type Command, EXIT, UsageError } from './io.js';

const HELP = `usage: tollgate limits --kind K [options]

  --kind K              token kind: ${TOKEN_KINDS.join(', ')}
  --repositories N      repositories an app installation is on (installation formula)
  --users N             organization users of an app installation (installation formula)
  --enterprise-cloud    the caller belongs to an enterprise-cloud organization
  --json                print the limits as JSON

example:
  tollgate limits --kind app-installation --repositories 50 --users 30

exit: 0 printed, 2 bad input`;

function count(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value))
    throw new UsageError(`limits: \`--${name}\` must be a whole number, got \`${value}\``);
  return Number(value);
}

function windowText(seconds: number): string {
  if (seconds === 0) return 'at any moment';
  if (seconds === 3600) return 'per hour';
  if (seconds === 60) return 'per minute';
  return `per ${seconds} s`;
}

function render(kind: TokenKind, title: string, all: readonly LimitLine[]): string {
  const out = [`limits for token kind \`${kind}\`${title}, counted ${COUNTED_PER[callerClassOf(kind)]}`, ''];
  const row = (l: LimitLine) => {
    const name = l.resource ?? l.rule;
    const amount = `${l.limit.toLocaleString('en-US')} ${l.unit} ${windowText(l.window_seconds)}`;
    return `  ${name.padEnd(20)} ${amount.padEnd(48)} ${l.algorithm}${l.note ? ` (${l.note})` : ''}`;
  };
  out.push('primary (per resource)', ...all.filter((l) => l.rule === 'primary').map(row), '');
  out.push('secondary', ...all.filter((l) => l.rule !== 'primary').map(row));
  return `${out.join('\n')}\n`;
}

/**
 * `tollgate limits --kind K [--repositories N] [--users N] [--enterprise-cloud] [--json]`.
 * @example
 * // $ tollgate limits --kind app-installation --repositories 50 --users 30
 * // limits for token kind `app-installation` (50 repositories, 30 users), counted per installation
 * //
 * // primary (per resource)
 * //   core                 7,000 requests per hour                          fixed window (...)
 */
export const limitsCommand: Command = (args, io) => {
  const { values, positionals } = parseCommandArgs('limits', args, {
    kind: { type: 'string' },
    repositories: { type: 'string' },
    users: { type: 'string' },
    'enterprise-cloud': { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help === true) {
    io.stdout(`${HELP}\n`);
    return EXIT.ok;
  }
  if (positionals.length > 0)
    throw new UsageError(`limits: unexpected argument \`${positionals[0]}\`; see \`tollgate limits --help\``);
  if (typeof values.kind !== 'string')
    throw new UsageError(`limits: \`--kind\` is required; valid choices: ${TOKEN_KINDS.join(', ')}`);
  const kind = oneOf('token kind', values.kind, TOKEN_KINDS);
  const repositoriesCount = count('repositories', values.repositories as string | undefined);
  const usersCount = count('users', values.users as string | undefined);
  const enterpriseCloud = values['enterprise-cloud'] === true;
  if ((repositoriesCount !== undefined || usersCount !== undefined) && kind !== 'app-installation') {
    throw new UsageError(
      `limits: \`--repositories\` and \`--users\` apply to \`app-installation\` only, not \`${kind}\``,
    );
  }
  // A flag that changes nothing for this kind is refused, never silently ignored: the seed gives
  // personal access tokens (classic, fine-grained) and anonymous callers no enterprise-cloud number.
  if (enterpriseCloud) {
    const applies = (k: TokenKind) =>
      limitsReport(k, { enterpriseCloud: true })[0]?.limit !==
      limitsReport(k, { enterpriseCloud: false })[0]?.limit;
    if (!applies(kind))
      throw new UsageError(
        `limits: \`--enterprise-cloud\` does not apply to \`${kind}\` (the seed gives it no enterprise-cloud limit); it applies to ${TOKEN_KINDS.filter(applies).join(', ')}`,
      );
  }

  const facts = { enterpriseCloud, repositoriesCount, usersCount };
  const all = limitsReport(kind, facts);
  if (values.json === true) {
    io.stdout(
      `${JSON.stringify(
        {
          kind,
          caller: callerClassOf(kind),
          enterprise_cloud: enterpriseCloud,
          repositories: repositoriesCount ?? null,
          users: usersCount ?? null,
          limits: all,
        },
        null,
        2,
      )}\n`,
    );
    return EXIT.ok;
  }
  const details = [
    repositoriesCount === undefined ? '' : `${repositoriesCount} repositories`,
    usersCount === undefined ? '' : `${usersCount} users`,
    enterpriseCloud ? 'enterprise cloud' : '',
  ].filter(Boolean);
  io.stdout(render(kind, details.length > 0 ? ` (${details.join(', ')})` : '', all));
  return EXIT.ok;
};

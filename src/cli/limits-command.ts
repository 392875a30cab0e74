/** `tollgate limits --kind K`: the rate limits that apply to a caller, each with its algorithm. */
import {
  callerClassOf,
  defaultLimits,
  type LimitAlgorithm,
  type LimitRule,
  type LimitsConfig,
  type LimitsResource,
  primaryLimits,
  RULE_ALGORITHMS,
} from '../limits/index.js';
import { TOKEN_KINDS, type TokenKind } from '../policy/index.js';
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

/** One line of the answer. */
interface LimitLine {
  readonly rule: LimitRule;
  readonly resource?: LimitsResource;
  readonly limit: number;
  readonly unit: string;
  readonly window_seconds: number;
  readonly algorithm: LimitAlgorithm;
  readonly note: string;
}

const COUNTED_PER: Record<ReturnType<typeof callerClassOf>, string> = {
  anonymous: 'per originating IP address',
  user: "per user, shared by all of the user's tokens",
  installation: 'per installation',
  'client-credentials': 'per OAuth app',
  workflow: 'per repository',
};

function count(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value))
    throw new UsageError(`limits: \`--${name}\` must be a whole number, got \`${value}\``);
  return Number(value);
}

function lines(
  kind: TokenKind,
  facts: { enterpriseCloud: boolean; repositoriesCount?: number; usersCount?: number },
  config: LimitsConfig,
): LimitLine[] {
  // The kind says whether a user acts through an app (seed 000: only then 15,000 on enterprise cloud).
  const limits = primaryLimits({ caller: callerClassOf(kind), kind, ...facts }, config);
  const { resources } = config.primary;
  const sec = config.secondary;
  const windowOf = (r: LimitsResource) =>
    (r === 'core' ? config.primary.windowMs : resources[r].windowMs) / 1000;
  const primaryNote: Record<LimitsResource, string> = {
    core: 'resets at x-ratelimit-reset, one window after its first request',
    search: "tollgate's default; the seed does not show it",
    graphql: resources.graphql.sameAsCore
      ? "tollgate's default: the core number; the seed does not show it"
      : "tollgate's default; the seed does not show it",
    lfs: 'separate bucket for large-file storage',
  };
  const primary = (['core', 'search', 'graphql', 'lfs'] as const).map<LimitLine>((resource) => ({
    rule: 'primary',
    resource,
    limit: limits[resource],
    unit: 'requests',
    window_seconds: windowOf(resource),
    algorithm: RULE_ALGORITHMS.primary,
    note: primaryNote[resource],
  }));
  const bucket = (
    rule: LimitRule,
    limit: number,
    unit: string,
    windowMs: number,
    note: string,
  ): LimitLine => ({
    rule,
    limit,
    unit,
    window_seconds: windowMs / 1000,
    algorithm: RULE_ALGORITHMS[rule],
    note,
  });
  return [
    ...primary,
    {
      rule: 'concurrency',
      limit: sec.concurrency.limit,
      unit: 'requests in flight',
      window_seconds: 0,
      algorithm: RULE_ALGORITHMS.concurrency,
      note: 'REST and GraphQL together',
    },
    bucket(
      'rest_points',
      sec.points.rest,
      'points',
      sec.points.windowMs,
      `${config.costs.rest.read} per GET/HEAD/OPTIONS, ${config.costs.rest.write} otherwise`,
    ),
    bucket(
      'graphql_points',
      sec.points.graphql,
      'points',
      sec.points.windowMs,
      `${config.costs.graphql.query} per query, ${config.costs.graphql.mutation} per mutation`,
    ),
    bucket('cpu', sec.cpu.totalMs / 1000, 'CPU seconds', sec.cpu.windowMs, 'charged after the response'),
    bucket(
      'graphql_cpu',
      sec.cpu.graphqlMs / 1000,
      'CPU seconds',
      sec.cpu.windowMs,
      'GraphQL share of the CPU rule',
    ),
    bucket('content_per_minute', sec.content.perMinute, 'content-generating requests', 60_000, ''),
    bucket('content_per_hour', sec.content.perHour, 'content-generating requests', 3_600_000, ''),
  ];
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
 * // primary (per resource)
 * //   core                 7,000 requests per hour    fixed window (...)
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
  if (enterpriseCloud && kind === 'anonymous')
    throw new UsageError('limits: `--enterprise-cloud` does not apply to `anonymous` callers');

  const facts = { enterpriseCloud, repositoriesCount, usersCount };
  const all = lines(kind, facts, defaultLimits());
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

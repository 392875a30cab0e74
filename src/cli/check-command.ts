/** `tollgate check SOURCE...`: does a token suffice for every call an app makes, and what is the least it needs? */
import {
  type CheckReport,
  checkCalls,
  githubReport,
  jsonReport,
  junitReport,
  readSources,
  sarifReport,
  textReport,
} from '../check/index.js';
import { createPolicy, shippedTables, TOKEN_KINDS, type Token } from '../policy/index.js';
import { loadTables, loadTokenFile } from '../tables/index.js';
import { oneOf, parseCommandArgs } from './args.js';
import { type Command, EXIT, UsageError } from './io.js';
import { TOLLGATE_VERSION } from './version.js';

const FORMATS = ['text', 'json', 'sarif', 'github', 'junit'] as const;

const HELP = `usage: tollgate check SOURCE... [--token FILE | --kind K] [options]

Judges every call an application makes, and computes the least-privilege grant for its token kind.
A SOURCE is a calls file (YAML or JSON list, or text: one \`METHOD /path\` a line), an OpenAPI 3
document, a JavaScript/TypeScript file or folder (Octokit calls are found in the code), or a
workflow file under a workflows folder (its \`permissions:\` are the workflow token, its
github-script steps are scanned).

  --token FILE          the token to judge (YAML/JSON token file)
  --kind K              no token: the least grant for this kind (${TOKEN_KINDS.join(', ')})
  --format F            text (default), json, sarif, github (workflow annotations), junit
  --json                the same as --format json
  --strict              uncertain and unresolved calls fail too
  --overlay FILE        apply an overlay table (repeatable)

Without --token or --kind, each job of a workflow source is judged with its own workflow token.

example:
  tollgate check examples/ci/bot --token examples/ci/bot-token.yaml

exit: 0 sufficient, 1 insufficient (or uncertain under --strict), 2 bad input`;

export const checkCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs('check', args, {
    token: { type: 'string' },
    kind: { type: 'string' },
    format: { type: 'string' },
    json: { type: 'boolean' },
    strict: { type: 'boolean' },
    overlay: { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout(`${HELP}\n`);
    return EXIT.ok;
  }
  if (positionals.length === 0)
    throw new UsageError('check: give at least one SOURCE (a file or folder); see `tollgate check --help`');
  if (values.token !== undefined && values.kind !== undefined)
    throw new UsageError('check: use either `--token FILE` or `--kind K`, not both');
  const format = values.json
    ? 'json'
    : oneOf('format', (values.format as string | undefined) ?? 'text', FORMATS);
  const overlays = (values.overlay as string[] | undefined) ?? [];
  const tables = overlays.length === 0 ? shippedTables() : loadTables(overlays);
  const policy = createPolicy(tables);
  const strict = values.strict === true;
  const kind =
    values.kind === undefined ? undefined : oneOf('token kind', values.kind as string, TOKEN_KINDS);
  const token: Token | undefined =
    values.token === undefined ? undefined : loadTokenFile(values.token as string, tables);
  // Everything is read and judged before anything is printed: bad input leaves stdout empty.
  const { calls, grants } = await readSources(positionals, tables);
  const reports: CheckReport[] = [];
  if (token !== undefined || kind !== undefined)
    reports.push(
      checkCalls(calls, {
        policy,
        ...(token === undefined ? {} : { token }),
        ...(kind === undefined ? {} : { kind }),
        strict,
      }),
    );
  else if (grants.length > 0) {
    const others = calls.filter((call) => !grants.some((grant) => grant.file === call.origin.file));
    if (others.length > 0)
      throw new UsageError(
        `check: ${others[0]!.origin.file} is not a workflow and has no token to be judged with; give \`--token FILE\` or \`--kind K\`, or check it on its own`,
      );
    for (const grant of grants) {
      const jobCalls = calls.filter(
        (call) => call.origin.file === grant.file && call.via?.startsWith(`${grant.job}: `),
      );
      const workflowToken: Token = { kind: 'workflow', permissions: grant.permissions, repositories: 'all' };
      const report = checkCalls(jobCalls, { policy, token: workflowToken, strict });
      reports.push(report);
      if (grant.defaulted)
        io.stderr(
          `tollgate: ${grant.origin.file}:${grant.origin.line}:${grant.origin.column}: job \`${grant.job}\` states no \`permissions:\`; the seeds do not show the default, tollgate assumes read-all\n`,
        );
    }
  } else
    throw new UsageError(
      'check: give `--token FILE` or `--kind K` (or a workflow file, whose permissions are its token)',
    );
  // One document whatever the number of reports (one per workflow job): a reader parses one thing.
  if (format === 'json') io.stdout(jsonReport(reports));
  else if (format === 'sarif') io.stdout(sarifReport(reports, TOLLGATE_VERSION));
  else if (format === 'junit') io.stdout(junitReport(reports));
  else
    for (const report of reports)
      io.stdout(format === 'github' ? githubReport(report) : textReport(report, io.isTty));
  return reports.every((report) => report.sufficient) ? EXIT.ok : EXIT.insufficient;
};

/** `tollgate check SOURCE...`: does a token suffice for every call an app makes, and what is the least it needs? */

import { isAbsolute, relative } from 'node:path';
import {
  type CheckReport,
  checkCalls,
  checkWorkflowJob,
  githubReport,
  jsonReport,
  junitReport,
  overlaySkeleton,
  readSources,
  sarifReport,
  textReport,
} from '../check.js';
import { escapeControl } from '../core/escape-control.js';
import { createPolicy, shippedTables, TOKEN_KINDS, type Token } from '../policy.js';
import { formatIssue, loadTables, loadTokenFile } from '../tables.js';
import { oneOf, parseCommandArgs } from './args.js';
import { type Command, EXIT, UsageError } from './io.js';
import { checkOutputPath, writeOutputFile } from './output-file.js';
import { capPerFile } from './problem-list.js';
import { TOLLGATE_VERSION } from './version.js';

const FORMATS = ['text', 'json', 'sarif', 'github', 'junit'] as const;

const HELP = `usage: tollgate check SOURCE... [--token FILE | --kind K] [options]

Judges every call an application makes, and computes the least-privilege grant for its token kind.
A SOURCE is a calls file (YAML or JSON list, or text: one \`METHOD /path\` a line), an OpenAPI 3
document, a JavaScript/TypeScript file or folder (Octokit calls are found in the code), a
workflow file under a workflows folder (its \`permissions:\` are the workflow token; its
github-script steps and \`gh api\` commands are read), or a composite action's action.yml.

  --token FILE            the token to judge (YAML/JSON token file)
  --kind K                no token: the least grant for this kind (${TOKEN_KINDS.join(', ')})
  --format F              text (default), json, sarif, github (workflow annotations), junit
  --json                  the same as --format json
  --strict                uncertain calls fail too
  --allow-unjudged        calls not judged (outside the table, unresolved, GraphQL), and
                          sources that hold no call, are a warning, not a failure (default:
                          they fail the run)
  --step-token-kind K     the kind of the tokens workflow steps are given (\`github-token:\`,
                          \`GH_TOKEN\`); default: their calls are not judged
  --write-overlay FILE    write an overlay skeleton for the endpoints the table lacks
  --overlay FILE          apply an overlay table (repeatable)

Without --token or --kind, each job of a workflow source is judged with its own workflow token.

example:
  tollgate check node_modules/tollgate/examples/ci/bot --token node_modules/tollgate/examples/ci/bot-token.yaml

exit: 0 every call judged and allowed, 1 a call refused or not judged (or uncertain under
--strict), 2 bad input (a source that cannot be read: the others are still judged and printed;
a --write-overlay FILE that cannot be written)`;

export const checkCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs('check', args, {
    token: { type: 'string' },
    kind: { type: 'string' },
    format: { type: 'string' },
    json: { type: 'boolean' },
    strict: { type: 'boolean' },
    'allow-unjudged': { type: 'boolean' },
    'step-token-kind': { type: 'string' },
    'write-overlay': { type: 'string' },
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
  const given = values.format as string | undefined;
  // `--json` is `--format json`: with another format the run could honour only one of them.
  if (values.json && given !== undefined && given !== 'json')
    throw new UsageError(`check: \`--json\` and \`--format ${given}\` ask for two formats; give one`);
  const format = values.json ? 'json' : oneOf('format', given ?? 'text', FORMATS);
  // Before the sources are read: an overlay file that cannot be written is known now.
  if (typeof values['write-overlay'] === 'string')
    checkOutputPath('--write-overlay', values['write-overlay']);
  const overlays = (values.overlay as string[] | undefined) ?? [];
  const tables = overlays.length === 0 ? shippedTables() : loadTables(overlays);
  const policy = createPolicy(tables);
  const options = {
    policy,
    strict: values.strict === true,
    allowUnjudged: values['allow-unjudged'] === true,
  };
  const kind =
    values.kind === undefined ? undefined : oneOf('token kind', values.kind as string, TOKEN_KINDS);
  const stepTokenKind =
    values['step-token-kind'] === undefined
      ? undefined
      : oneOf('token kind', values['step-token-kind'] as string, TOKEN_KINDS);
  const token: Token | undefined =
    values.token === undefined ? undefined : loadTokenFile(values.token as string, tables);
  // Everything is read and judged before anything is printed.
  const { calls, grants, problems } = await readSources(positionals, tables);
  const reports: CheckReport[] = [];
  if (token !== undefined || kind !== undefined)
    reports.push(
      checkCalls(calls, {
        ...options,
        ...(token === undefined ? {} : { token }),
        ...(kind === undefined ? {} : { kind }),
      }),
    );
  else if (grants.length > 0) {
    const others = calls.filter((call) => !grants.some((grant) => grant.file === call.origin.file));
    if (others.length > 0)
      throw new UsageError(
        `check: ${escapeControl(others[0]!.origin.file)} is not a workflow and has no token to be judged with; give \`--token FILE\` or \`--kind K\`, or check it on its own`,
      );
    for (const grant of grants)
      reports.push(
        ...checkWorkflowJob(grant, { ...options, ...(stepTokenKind === undefined ? {} : { stepTokenKind }) }),
      );
  } else if (problems.length === 0 || calls.length > 0)
    throw new UsageError(
      'check: give `--token FILE` or `--kind K` (or a workflow file, whose permissions are its token)',
    );
  let unwritten: UsageError | undefined;
  if (typeof values['write-overlay'] === 'string') {
    const skeleton = overlaySkeleton(reports);
    const target = values['write-overlay'];
    try {
      writeOutputFile('--write-overlay', target, skeleton ?? 'version: 1\nendpoints: {}\n');
      const count = skeleton === null ? 0 : (skeleton.match(/^ {4}fine_grained:/gm) ?? []).length;
      io.stderr(
        `tollgate: wrote ${count} endpoint${count === 1 ? '' : 's'} to fill to ${escapeControl(target)}\n`,
      );
    } catch (error) {
      // The reports are still printed; the failure is said after them, and the exit is 2.
      if (!(error instanceof UsageError)) throw error;
      unwritten = error;
    }
  }
  // Sources that hold no call judge nothing: a CI step pointed at the wrong folder must not pass
  // (`passed` false in every format, as the exit code says), unless told to.
  // Per source: `check src/ wrong-folder/` must not pass on src/'s calls. A workflow's job counts as
  // found only when it is judged as a job (no --token or --kind: its block is its token).
  const found = new Set(calls.map((call) => call.origin.file));
  if (token === undefined && kind === undefined) for (const grant of grants) found.add(grant.file);
  const empty = positionals.filter((source) => ![...found].some((file) => within(file, source)));
  const nothingFound = empty.length > 0 && !options.allowUnjudged;
  if (nothingFound)
    reports.splice(0, reports.length, ...reports.map((report) => ({ ...report, passed: false })));
  // Nothing read at all (every source a problem): nothing to print but the problems.
  if (reports.length > 0 && (calls.length > 0 || grants.length > 0 || problems.length === 0)) {
    // One document whatever the number of reports (one per workflow job): a reader parses one thing.
    if (format === 'json') io.stdout(jsonReport(reports));
    else if (format === 'sarif') io.stdout(sarifReport(reports, TOLLGATE_VERSION));
    else if (format === 'junit') io.stdout(junitReport(reports));
    else
      for (const report of reports)
        io.stdout(format === 'github' ? githubReport(report) : textReport(report, io.isTty));
  }
  const problemLines = problems.map((problem) => ({ file: problem.source.file, text: formatIssue(problem) }));
  for (const line of capPerFile(problemLines)) io.stderr(`tollgate: ${escapeControl(line)}\n`);
  if (unwritten !== undefined) {
    io.stderr(`tollgate: ${escapeControl(unwritten.message)}\n`);
    if (problems.length === 0) return EXIT.badInput;
  }
  if (problems.length > 0) {
    // Sources, not problems: one file may hold several.
    const unread = new Set(problems.map((problem) => problem.source.file)).size;
    if (calls.length > 0 || grants.length > 0)
      io.stderr(
        `tollgate: ${unread} source${unread === 1 ? '' : 's'} could not be read; the others were judged\n`,
      );
    return EXIT.badInput;
  }
  if (nothingFound) {
    io.stderr(
      `tollgate: check: found no call to judge in ${empty.map((p) => `\`${escapeControl(p)}\``).join(', ')} (a folder is searched for code, workflows and action.yml files; name calls files and OpenAPI documents directly); \`--allow-unjudged\` lets this pass\n`,
    );
    return EXIT.insufficient;
  }
  return reports.every((report) => report.passed) ? EXIT.ok : EXIT.insufficient;
};

/** Whether `file` (as the sources were read) is `source` itself or a file under the folder `source`. */
function within(file: string, source: string): boolean {
  if (file === source) return true;
  const path = relative(source, file);
  return path !== '' && !path.startsWith('..') && !isAbsolute(path);
}

/** A job's steps: the calls of github-script and `gh api` steps, steps with a token of their own, and steps tollgate cannot see into. */
import { isScalar, type Scalar } from 'yaml';
import type { PathReader } from '../tables/yaml-keys.js';
import type { Call, Origin } from './call.js';
import { ghApiCalls } from './gh-api.js';
import type { OctokitRoute } from './octokit-routes.js';
import { scanSource } from './scan-source.js';

type Path = (string | number)[];
type Node = Scalar & { range?: [number, number, number]; type?: string };

/** What a job's steps make of its token. */
export interface JobSteps {
  /** Calls made with the workflow token. */
  readonly calls: Call[];
  /** Calls made with a token a step is given (`github-token:`, `GH_TOKEN`), per step. */
  readonly stepTokens: { readonly expression: string; readonly origin: Origin; readonly calls: Call[] }[];
  /** Steps that may use the workflow token in ways tollgate cannot read, each in one line. */
  readonly opaque: string[];
}

/**
 * `${{ ... }}` blanked out (same length, underscores, newlines kept), so the text parses as the
 * script the runner will run and every position stays where it was.
 * @example
 * import { blankExpressions } from './workflow-steps.js';
 * blankExpressions('let remote = ${{ inputs.is_remote }};'); // 'let remote = ________________________;'
 */
export function blankExpressions(text: string): string {
  return text.replace(/\$\{\{[\s\S]*?\}\}/g, (expression) => expression.replace(/[^\n]/g, '_'));
}

const WORKFLOW_TOKEN = /^\$\{\{\s*(github\.token|secrets\.GITHUB_TOKEN)\s*\}\}$/;

/**
 * Where the script's own lines and columns sit in the YAML file, or null where they do not line
 * up: a literal block (`|`) from the first line with text, indented as that line is; a one-line
 * plain or quoted scalar without escapes, from where its text starts.
 */
function scriptOffset(
  lines: readonly string[],
  node: Node,
  start: Origin,
): { line: number; column: number } | null {
  const value = String(node.value);
  if (node.type === 'BLOCK_LITERAL') {
    let line = start.line; // the `|` line; the text starts below it
    while (line < lines.length && lines[line]!.trim() === '') line++;
    const indent = lines[line]?.match(/^ */)?.[0].length ?? 0;
    // The scanner's line 1 is the value's first line, blank ones included.
    const leadingBlank = value.length - value.replace(/^\n+/, '').length;
    return { line: line - leadingBlank, column: indent };
  }
  if (value.includes('\n')) return null;
  const source = lines[start.line - 1]?.slice(start.column - 1) ?? '';
  if (node.type === 'PLAIN')
    return source.startsWith(value) ? { line: start.line - 1, column: start.column - 1 } : null;
  if ((node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') && source.slice(1).startsWith(value))
    return { line: start.line - 1, column: start.column };
  return null;
}

/** The token expression a step's `gh` sees: `GH_TOKEN` (or `GITHUB_TOKEN`) of the step, job or workflow `env`. */
function ghToken(document: PathReader, envPaths: readonly Path[]): string | undefined {
  for (const path of envPaths)
    for (const name of ['GH_TOKEN', 'GITHUB_TOKEN']) {
      const value = document.getIn([...path, name]);
      if (typeof value === 'string') return value.trim();
    }
  return undefined;
}

/**
 * Reads the steps at `stepsPath` of a job named `job`. `inputDefault` resolves `${{ inputs.x }}`
 * in a composite action (the default of input `x`).
 */
export function readSteps(
  document: PathReader,
  stepsPath: Path,
  job: string,
  context: {
    readonly file: string;
    readonly lines: readonly string[];
    readonly at: (offset: number | undefined) => Origin;
    readonly routes: ReadonlyMap<string, OctokitRoute>;
    readonly envPaths: readonly Path[];
    readonly inputDefault?: (expression: string) => string | undefined;
  },
): JobSteps {
  const result: JobSteps = { calls: [], stepTokens: [], opaque: [] };
  const steps = document.getIn(stepsPath, true);
  if (steps === undefined || !('items' in (steps as object))) return result;
  const count = (steps as { items: unknown[] }).items.length;
  const tokenKind = (expression: string | undefined): 'workflow' | string => {
    if (expression === undefined) return 'workflow';
    const resolved = context.inputDefault?.(expression) ?? expression;
    return WORKFLOW_TOKEN.test(resolved.trim()) ? 'workflow' : expression;
  };
  for (let i = 0; i < count; i++) {
    const path = [...stepsPath, i];
    const name = document.getIn([...path, 'name']) ?? document.getIn([...path, 'id']);
    const label = `step ${i + 1}${typeof name === 'string' ? ` (${name})` : ''}`;
    const uses = document.getIn([...path, 'uses']);
    const stepOrigin = context.at(
      (document.getIn(path, true) as { range?: [number] } | undefined)?.range?.[0],
    );
    const place = (calls: Call[], expression: string | undefined) => {
      const token = tokenKind(expression);
      if (token === 'workflow') result.calls.push(...calls);
      else result.stepTokens.push({ expression: token, origin: stepOrigin, calls });
    };
    if (typeof uses === 'string' && uses.startsWith('actions/github-script')) {
      const node = document.getIn([...path, 'with', 'script'], true) as Node | undefined;
      const token = document.getIn([...path, 'with', 'github-token']);
      if (node === undefined || typeof node.value !== 'string') continue;
      const start = context.at(node.range?.[0]);
      const offset = scriptOffset(context.lines, node, start);
      const calls = scanSource(
        blankExpressions(node.value),
        context.file,
        context.routes,
        offset ?? { line: 0, column: 0 },
      ).map(
        (call): Call => ({
          ...call,
          // Where the script's text cannot be mapped line for line (folded, or quoted over several
          // lines, escapes), each call is placed at the script itself.
          ...(offset === null ? { origin: start } : {}),
          via: `${job}: ${call.via ?? 'github-script'}`,
          job,
        }),
      );
      place(calls, typeof token === 'string' ? token : undefined);
    } else if (typeof uses === 'string') {
      result.opaque.push(`${label} \`uses: ${uses}\``);
    } else {
      const node = document.getIn([...path, 'run'], true) as Node | undefined;
      if (node === undefined || !isScalar(node) || typeof node.value !== 'string') continue;
      // `${{ github.repository }}` is `owner/repo`: two segments of a route.
      const script = blankExpressions(
        node.value.replace(/\$\{\{\s*github\.repository\s*\}\}/g, '{owner}/{repo}'),
      );
      const start = context.at(node.range?.[0]);
      const offset = scriptOffset(context.lines, node, start);
      const calls = ghApiCalls(script, {
        file: context.file,
        line: (offset?.line ?? 0) + 1,
        column: (offset?.column ?? 0) + 1,
      }).map(
        (call): Call => ({
          ...call,
          ...(offset === null ? { origin: start } : {}),
          via: `${job}: ${call.via}`,
          job,
        }),
      );
      const gh = ghToken(document, [[...path, 'env'], ...context.envPaths]);
      if (calls.length > 0) place(calls, gh);
      // A workflow token used by anything but `gh api`: other gh commands (unless `gh` is given a
      // token of its own), git push, a command handed the token.
      const ghUsesWorkflowToken = tokenKind(gh) === 'workflow';
      const other = new RegExp(
        `${ghUsesWorkflowToken ? '(^|[\\s;&|(])gh\\s+(?!api\\b)[a-z][a-z-]*|' : ''}\\bgit\\s+push\\b|GITHUB_TOKEN|github\\.token`,
        'm',
      ).exec(node.value.replace(/(^|[\s;&|(])gh\s+api\b/g, ''));
      if (other !== null) result.opaque.push(`${label} \`run:\` uses the token (\`${other[0].trim()}\`)`);
    }
  }
  return result;
}

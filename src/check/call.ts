/** A call an application makes, and where it was found. */
import { TollgateError } from '../core/errors.js';
import { formatIssue, type Issue, type SourcePosition } from '../core/issue.js';

/** Where a call (or a problem) was found: file, 1-based line and column. */
export type Origin = SourcePosition;

/**
 * One call: a method and a path (a template such as `/repos/{owner}/{repo}/issues` or a concrete
 * path), optionally the visibility of its resource. An unresolved call is one found in code whose
 * route is not a literal: it is reported, never judged.
 */
export interface Call {
  readonly method: string;
  readonly path: string;
  readonly visibility?: 'public' | 'private';
  readonly origin: Origin;
  /** False for a call whose route the scanner could not read (a variable, a template with holes). */
  readonly resolved: boolean;
  /** What the call was found as, e.g. `octokit.rest.issues.listEvents`. */
  readonly via?: string;
  /**
   * Set on a GraphQL call (method `POST`, path `/graphql`): whether it is a query or a mutation, and
   * its point cost (seed 000, "Point costs": without mutation 1, with mutation 5). An operation the
   * scanner cannot read (a query built elsewhere) is `unknown`, reported at the higher cost, 5.
   */
  readonly graphql?: { readonly operation: 'query' | 'mutation' | 'unknown'; readonly cost: 1 | 5 };
  /** Why an unresolved call could not be resolved, one line, e.g. ``the route is the parameter `route` ``. */
  readonly reason?: string;
  /** For a computed method name, the `METHOD /route` candidates the scanner can see in the module. */
  readonly candidates?: readonly string[];
  /** The workflow job the call belongs to. */
  readonly job?: string;
}

/** One workflow job (or composite action): the workflow token its `permissions:` grant, and what its steps do with it. */
export interface WorkflowGrant {
  readonly file: string;
  readonly job: string;
  /** The seed permissions the block grants the workflow token (what calls are judged with). */
  readonly permissions: Readonly<Record<string, 'read' | 'write'>>;
  /** The block in workflow keys (`read-all`, `write-all` spelled out; the default when defaulted). */
  readonly block: Readonly<Record<string, 'read' | 'write'>>;
  readonly origin: Origin;
  /** True when neither the job nor the workflow states `permissions:` (always for a composite action). */
  readonly defaulted: boolean;
  /** True for a composite action: the workflow that uses it grants the token. */
  readonly composite: boolean;
  /** The calls made with the workflow token. */
  readonly calls: readonly Call[];
  /** Calls made with a token a step is given (`github-token:`, `GH_TOKEN`), per step. */
  readonly stepTokens: readonly {
    readonly expression: string;
    readonly origin: Origin;
    readonly calls: readonly Call[];
  }[];
  /** Steps that may use the token in ways tollgate cannot read (`uses:` steps, reusable workflows, other `gh` commands). */
  readonly opaque: readonly string[];
}

/** What one source yields. */
export interface SourceCalls {
  readonly calls: Call[];
  readonly grants: WorkflowGrant[];
}

/**
 * The bad-input error of check: one line per problem, `file:line:col: message (valid choices)`.
 * @example
 * import { inputError } from './call.js';
 * inputError([{ code: 'x', message: 'unknown method `FETCH`', path: [], source: { file: 'calls.txt', line: 2, column: 1 } }]).message;
 * // 'calls.txt:2:1: unknown method `FETCH`'
 */
export function inputError(issues: readonly Issue[]): TollgateError {
  const lines = issues.map(formatIssue);
  if (lines.length === 1) return new TollgateError('TOLLGATE_INVALID_INPUT', lines[0]!);
  return new TollgateError('TOLLGATE_INVALID_INPUT', `${lines.length} problems, one per line below`, {
    details: lines,
  });
}

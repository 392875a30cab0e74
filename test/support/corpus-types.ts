// The shapes of the real-code corpus's expectations.yaml, as test/support/corpus.ts loads them.
/** What a call site is: a REST call, a GraphQL call, or a call nobody could resolve from the code. */
export type CallKind = 'rest' | 'graphql' | 'unresolvable';
/** The kinds of project the corpus holds (issue 19, "Done when"). */
export type ProjectKind = 'javascript-action' | 'typescript-action' | 'probot-app' | 'library' | 'workflows';
/** The token the code runs with. */
export type TokenKind = 'workflow' | 'app-installation' | 'classic' | 'fine-grained';

/** One call site, as counted by hand. */
export interface ExpectedCall {
  /** Path relative to the project folder. */
  readonly file: string;
  /** 1-based line where the call expression starts. */
  readonly line: number;
  /** Text that stands on that line (the method path, the route, or `gh api ...`). */
  readonly match: string;
  /** A short tag for the call style: `rest`, `no-rest`, `graphql`, `computed`, `gh-api`, ... */
  readonly style: string;
  readonly kind: CallKind;
  /** Every route the call can take (`METHOD /path` with `{param}` names); empty unless `kind` is `rest`. */
  readonly routes: readonly string[];
  /** `query`, `mutation`, or `unknown` when the document is not in view; GraphQL calls only. */
  readonly operation?: 'query' | 'mutation' | 'unknown';
  /** Why nobody can resolve the call; unresolvable calls only. */
  readonly reason?: string;
  /** Line where the route is written when the request is made elsewhere (`endpoint.merge` options). */
  readonly definedAt?: number;
  /** Other lines a report may name for this call: a call chained over lines (`this.github⏎.request(`). */
  readonly alsoAt: readonly number[];
  /** The token this call runs with, when it is not the project's. */
  readonly tokenKind?: TokenKind;
  /** A computed call whose candidates `check` may list as unresolved instead of judging them. */
  readonly acceptUnresolved: boolean;
  readonly note?: string;
}

/** What the authors document as the permissions or scopes the token needs. */
export interface DocumentedPermission {
  readonly file: string;
  readonly quote: string;
  readonly permissions?: Readonly<Record<string, string>>;
  readonly scopes?: readonly string[];
  readonly appliesTo?: string;
}

/** The grant `check` computes for one job (or, outside workflows, for the project's token). */
export interface GrantEntry {
  /** The job's name (with the step token it stands for), or null outside workflows. */
  readonly job: string | null;
  /** The token kind the job was judged as, as the report names it. */
  readonly token: string;
  /** The grant as the summary prints it, from `grant` on (`grant (partial: ...): issues=write`). */
  readonly grant: string;
  /** The `permissions:` block printed for a workflow job. */
  readonly block?: string;
}

/** What `check` grants the project, held against what the authors document. */
export interface GrantComparison {
  /** Exactly what `check` prints, job by job. */
  readonly computed: readonly GrantEntry[];
  /** True when the grant equals what the authors document. */
  readonly matchesDocumented: boolean;
  /** One line per difference, naming the seed fact or endpoint behind it. */
  readonly differences: readonly string[];
}

/** A call the code makes that the corpus lists but does not count (a `gh` subcommand other than `gh api`). */
export interface UncountedCall {
  readonly file: string;
  readonly lines: readonly number[];
  readonly text: string;
  readonly route: string;
}

/** One project of the corpus. */
export interface CorpusProject {
  /** The folder name, `<owner>__<repo>`. */
  readonly id: string;
  /** The folder's absolute path. */
  readonly dir: string;
  /** `owner/name` of the repository. */
  readonly project: string;
  readonly projectKind: ProjectKind;
  readonly tokenKind: TokenKind;
  /** `none` when the authors document nothing. */
  readonly documentedPermissions: readonly DocumentedPermission[] | 'none';
  readonly calls: readonly ExpectedCall[];
  readonly notCounted: readonly UncountedCall[];
  /** The files that hold the counted calls, each once, in order of first appearance. */
  readonly callFiles: readonly string[];
  readonly grant: GrantComparison;
}

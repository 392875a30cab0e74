/** Scenario files: YAML or JSON, checked against data/schema/scenario.schema.json and the endpoint table. */
import { dirname, resolve } from 'node:path';
import { TollgateError } from '../core/errors.js';
import type { Issue } from '../core/issue.js';
import { formatIssue } from '../core/issue.js';
import { closest } from '../core/suggest.js';
import type { PolicyTables } from '../policy/tables.js';
import { parseDataFile } from '../tables/json-document.js';
import { readTextFile } from '../tables/load-tables.js';
import { validateDocument } from '../tables/schema-validator.js';
import { parseTokenText } from '../tables/token-text.js';
import type { SourceDocument } from '../tables/yaml-document.js';
// sim-planner: the planner's fields (schedule, pool) and token fact checks.
import {
  plannerFieldIssues,
  plannerFields,
  plannerTokenFacts,
  type RawPool,
  type RawSchedule,
} from './plan-read-fields.js';
import type { Distribution } from './random.js';
import type { Behaviour, CallerSpec, CallerToken, Scenario } from './scenario.js';
import { scenarioLimits } from './scenario-limits.js';
import { SERVICE_TRAFFIC } from './sim-request.js';

interface RawToken {
  readonly kind: CallerSpec['token']['kind'];
  readonly user?: string;
  readonly installation?: string | number;
  readonly app?: string | number;
  readonly repository?: string;
  readonly ip?: string;
  readonly repositories_count?: number;
  readonly users_count?: number;
  readonly enterprise_cloud?: boolean;
  readonly scopes?: readonly string[];
  readonly permissions?: Readonly<Record<string, 'read' | 'write'>>;
  readonly repositories?: 'all' | readonly string[];
}

interface RawCaller {
  readonly name: string;
  readonly token: RawToken | string;
  readonly workers?: number;
  readonly rate?: number;
  readonly work?: number;
  readonly mix: readonly { readonly endpoint: string; readonly weight?: number }[];
  readonly latency_ms?: Distribution;
  readonly cpu_ms?: Distribution;
  readonly behaviour: Behaviour;
  readonly poll?: { readonly unchanged_share: number };
  // sim-engine: visibility, retries, the active span.
  readonly visibility?: 'public' | 'private';
  readonly retry?: {
    readonly max_retries?: number;
    readonly min_wait_seconds?: number;
    readonly backoff_factor?: number;
  };
  readonly start_seconds?: number;
  readonly stop_seconds?: number;
  readonly octokit?: {
    readonly max_concurrent?: number;
    readonly write_spacing_ms?: number;
    readonly notification_spacing_ms?: number;
    readonly search_spacing_ms?: number;
  };
  // sim-planner
  readonly schedule?: RawSchedule;
  readonly pool?: RawPool;
}

interface RawScenario {
  readonly seed: number;
  readonly duration_seconds?: number;
  readonly start?: number;
  readonly window_modes?: Scenario['windowModes'];
  readonly callers: readonly RawCaller[];
  // sim-engine: limits over the shipped table.
  readonly limits?: string | Readonly<Record<string, unknown>>;
}

/**
 * Options of `readScenario`.
 * @example
 * import type { ReadScenarioOptions } from './read-scenario.js';
 * const options: ReadScenarioOptions = { limitsFile: 'search-limits.yaml' };
 */
export interface ReadScenarioOptions {
  /** A limits overlay file applied over the scenario's own `limits` (`simulate --limits FILE`). */
  readonly limitsFile?: string;
}

/**
 * Reads a scenario (YAML or JSON text from `file`): the schema first, then every endpoint of each
 * mix against the table, then that each caller ends (a `work` or the scenario's duration). Throws
 * TOLLGATE_INVALID_INPUT with one `file:line:col: message (valid choices)` line per problem.
 * @example
 * import { shippedTables } from 'tollgate';
 * import { readScenario } from './read-scenario.js';
 * const text = 'seed: 1\nduration_seconds: 60\ncallers:\n  - name: poller\n    token: { kind: anonymous, ip: 198.51.100.7 }\n    behaviour: polite\n    mix: [{ endpoint: GET /rate_limit }]\n';
 * readScenario(text, 'poller.yaml', shippedTables()).callers[0]?.token; // { kind: 'anonymous', ip: '198.51.100.7' }
 */
export function readScenario(
  text: string,
  file: string,
  tables: PolicyTables,
  options: ReadScenarioOptions = {},
): Scenario {
  const document = parseDataFile(text, file);
  const issues = validateDocument(document, 'scenario');
  if (issues.length === 0) {
    const raw = document.value as RawScenario;
    const keys = [...tables.endpoints.map((entry) => entry.key), ...Object.keys(SERVICE_TRAFFIC)];
    const known = new Set(keys);
    raw.callers.forEach((caller, c) => {
      caller.mix.forEach((item, m) => {
        if (known.has(item.endpoint)) return;
        const near = closest(item.endpoint, keys);
        issues.push({
          code: 'unknown_endpoint',
          message: `no endpoint \`${item.endpoint}\` in the table${near === undefined ? '' : ` (did you mean \`${near}\`?)`}`,
          hint: 'endpoints as `tollgate endpoints` lists them, e.g. `GET /repos/{owner}/{repo}/issues/events`',
          path: ['callers', c, 'mix', m, 'endpoint'],
          source: document.locate(['callers', c, 'mix', m, 'endpoint']),
        });
      });
      if (!caller.mix.some((item) => (item.weight ?? 1) > 0))
        issues.push({
          code: 'empty_mix',
          message: `caller \`${caller.name}\` has no endpoint with a weight above 0`,
          path: ['callers', c, 'mix'],
          source: document.locate(['callers', c, 'mix']),
        });
      // sim-engine: a token as a token file states it, checked by the token files' own reader.
      issues.push(...tokenIssues(caller.token, document, ['callers', c, 'token'], file, tables));
      if (
        caller.start_seconds !== undefined &&
        caller.stop_seconds !== undefined &&
        caller.stop_seconds <= caller.start_seconds
      )
        issues.push({
          code: 'empty_span',
          message: `caller \`${caller.name}\` stops (\`stop_seconds: ${caller.stop_seconds}\`) before it starts (\`start_seconds: ${caller.start_seconds}\`)`,
          path: ['callers', c, 'stop_seconds'],
          source: document.locate(['callers', c, 'stop_seconds']),
        });
      // sim-planner: a schedule that ends (burst, runs of a set length, repetition) ends the caller too.
      const scheduled =
        caller.schedule !== undefined &&
        (caller.schedule.burst ?? caller.schedule.for ?? caller.schedule.every) !== undefined;
      if (caller.work === undefined && raw.duration_seconds === undefined && !scheduled)
        issues.push({
          code: 'endless',
          message: `caller \`${caller.name}\` has no \`work\` and the scenario no \`duration_seconds\`: it would never end`,
          path: ['callers', c],
          source: document.locate(['callers', c]),
        });
      // sim-planner: schedule, pool, and token facts that do not apply to the kind.
      const facts = plannerTokenFacts(caller.token, file, tables);
      issues.push(...plannerFieldIssues(caller, facts, c, raw.duration_seconds, document.locate));
    });
  }
  if (issues.length > 0) {
    const lines = issues.map(formatIssue);
    throw new TollgateError(
      'TOLLGATE_INVALID_INPUT',
      lines.length === 1 ? lines[0]! : `${lines.length} problems in \`${file}\`, one per line below`,
      {
        ...(lines.length === 1 ? {} : { details: lines }),
      },
    );
  }
  const raw = document.value as RawScenario;
  const here = (path: string) => resolve(dirname(file), path);
  return {
    seed: raw.seed,
    ...(raw.limits === undefined && options.limitsFile === undefined
      ? {}
      : {
          limits: scenarioLimits(raw.limits, here, { file, locate: document.locate }, options.limitsFile),
        }),
    ...(raw.duration_seconds === undefined ? {} : { durationSeconds: raw.duration_seconds }),
    ...(raw.start === undefined ? {} : { start: raw.start }),
    ...(raw.window_modes === undefined ? {} : { windowModes: raw.window_modes }),
    callers: raw.callers.map((caller) => {
      return {
        name: caller.name,
        token: callerToken(caller.token, here, tables),
        ...(caller.workers === undefined ? {} : { workers: caller.workers }),
        ...(caller.rate === undefined ? {} : { rate: caller.rate }),
        ...(caller.work === undefined ? {} : { work: caller.work }),
        mix: caller.mix.map((item) => ({ endpoint: item.endpoint, weight: item.weight ?? 1 })),
        ...(caller.latency_ms === undefined ? {} : { latencyMs: caller.latency_ms }),
        ...(caller.cpu_ms === undefined ? {} : { cpuMs: caller.cpu_ms }),
        behaviour: caller.behaviour,
        ...(caller.poll === undefined ? {} : { poll: { unchanged: caller.poll.unchanged_share } }),
        // sim-engine: visibility, retries, the active span.
        ...(caller.visibility === undefined ? {} : { visibility: caller.visibility }),
        ...(caller.retry === undefined ? {} : { retry: retrySettings(caller.retry) }),
        ...(caller.start_seconds === undefined ? {} : { startSeconds: caller.start_seconds }),
        ...(caller.stop_seconds === undefined ? {} : { stopSeconds: caller.stop_seconds }),
        ...(caller.octokit === undefined ? {} : { octokit: octokitSettings(caller.octokit) }),
        // sim-planner
        ...plannerFields(caller),
      };
    }),
  };
}

/** The problems of a caller's token: its token file's, or those of the inline token as a token file. */
function tokenIssues(
  token: RawToken | string,
  document: SourceDocument,
  path: (string | number)[],
  file: string,
  tables: PolicyTables,
): Issue[] {
  if (typeof token === 'string') {
    const tokenFile = resolve(dirname(file), token);
    return parseTokenText(readTextFile(tokenFile), tokenFile, tables).issues;
  }
  // The token files' reader, on the inline token; each problem located in the scenario.
  return parseTokenText(JSON.stringify(token), file, tables).issues.map((issue) => ({
    ...issue,
    source: document.locate([...path, ...issue.path], { key: issue.code === 'unexpected_field' }),
  }));
}

/** The caller's token: read from its token file (stated), or inline; `scopes`/`permissions` kept only when stated. */
function callerToken(
  token: RawToken | string,
  here: (path: string) => string,
  tables: PolicyTables,
): CallerToken {
  if (typeof token === 'string') {
    const tokenFile = here(token);
    return parseTokenText(readTextFile(tokenFile), tokenFile, tables).token!;
  }
  const { kind, repositories_count, users_count, enterprise_cloud, installation, app, ...facts } = token;
  return {
    kind,
    ...facts,
    ...(installation === undefined ? {} : { installation: String(installation) }),
    ...(app === undefined ? {} : { app: String(app) }),
    ...(repositories_count === undefined ? {} : { repositoriesCount: repositories_count }),
    ...(users_count === undefined ? {} : { usersCount: users_count }),
    ...(enterprise_cloud === undefined ? {} : { enterpriseCloud: enterprise_cloud }),
  };
}

function retrySettings(retry: NonNullable<RawCaller['retry']>): NonNullable<CallerSpec['retry']> {
  return {
    ...(retry.max_retries === undefined ? {} : { maxRetries: retry.max_retries }),
    ...(retry.min_wait_seconds === undefined ? {} : { minWaitSeconds: retry.min_wait_seconds }),
    ...(retry.backoff_factor === undefined ? {} : { backoffFactor: retry.backoff_factor }),
  };
}

function octokitSettings(raw: NonNullable<RawCaller['octokit']>): NonNullable<CallerSpec['octokit']> {
  return {
    ...(raw.max_concurrent === undefined ? {} : { maxConcurrent: raw.max_concurrent }),
    ...(raw.write_spacing_ms === undefined ? {} : { writeSpacingMs: raw.write_spacing_ms }),
    ...(raw.notification_spacing_ms === undefined
      ? {}
      : { notificationSpacingMs: raw.notification_spacing_ms }),
    ...(raw.search_spacing_ms === undefined ? {} : { searchSpacingMs: raw.search_spacing_ms }),
  };
}

/** Scenario files: YAML or JSON, checked against data/schema/scenario.schema.json and the endpoint table. */
import { TollgateError } from '../index.js';
import type { PolicyTables } from '../policy/index.js';
import { closest, formatIssue, parseSourceDocument, validateDocument } from '../tables/index.js';
// sim-planner: the planner's fields (schedule, pool) and token fact checks.
import { plannerFieldIssues, plannerFields, type RawPool, type RawSchedule } from './plan-read-fields.js';
import type { Distribution } from './random.js';
import type { Behaviour, CallerSpec, Scenario } from './scenario.js';

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
}

interface RawCaller {
  readonly name: string;
  readonly token: RawToken;
  readonly workers?: number;
  readonly rate?: number;
  readonly work?: number;
  readonly mix: readonly { readonly endpoint: string; readonly weight?: number }[];
  readonly latency_ms?: Distribution;
  readonly cpu_ms?: Distribution;
  readonly behaviour: Behaviour;
  readonly poll?: { readonly unchanged_share: number };
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
export function readScenario(text: string, file: string, tables: PolicyTables): Scenario {
  const document = parseSourceDocument(text, file);
  const issues = validateDocument(document, 'scenario');
  if (issues.length === 0) {
    const raw = document.value as RawScenario;
    const keys = tables.endpoints.map((entry) => entry.key);
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
      const { kind, enterprise_cloud, repositories_count, users_count } = caller.token;
      const facts = {
        kind,
        ...(enterprise_cloud === undefined ? {} : { enterpriseCloud: enterprise_cloud }),
        ...(repositories_count === undefined ? {} : { repositoriesCount: repositories_count }),
        ...(users_count === undefined ? {} : { usersCount: users_count }),
      };
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
  return {
    seed: raw.seed,
    ...(raw.duration_seconds === undefined ? {} : { durationSeconds: raw.duration_seconds }),
    ...(raw.start === undefined ? {} : { start: raw.start }),
    ...(raw.window_modes === undefined ? {} : { windowModes: raw.window_modes }),
    callers: raw.callers.map((caller) => {
      const { kind, repositories_count, users_count, enterprise_cloud, installation, app, ...facts } =
        caller.token;
      return {
        name: caller.name,
        token: {
          kind,
          ...facts,
          ...(installation === undefined ? {} : { installation: String(installation) }),
          ...(app === undefined ? {} : { app: String(app) }),
          ...(repositories_count === undefined ? {} : { repositoriesCount: repositories_count }),
          ...(users_count === undefined ? {} : { usersCount: users_count }),
          ...(enterprise_cloud === undefined ? {} : { enterpriseCloud: enterprise_cloud }),
        },
        ...(caller.workers === undefined ? {} : { workers: caller.workers }),
        ...(caller.rate === undefined ? {} : { rate: caller.rate }),
        ...(caller.work === undefined ? {} : { work: caller.work }),
        mix: caller.mix.map((item) => ({ endpoint: item.endpoint, weight: item.weight ?? 1 })),
        ...(caller.latency_ms === undefined ? {} : { latencyMs: caller.latency_ms }),
        ...(caller.cpu_ms === undefined ? {} : { cpuMs: caller.cpu_ms }),
        behaviour: caller.behaviour,
        ...(caller.poll === undefined ? {} : { poll: { unchanged: caller.poll.unchanged_share } }),
        // sim-planner
        ...plannerFields(caller),
      };
    }),
  };
}

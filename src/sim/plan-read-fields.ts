/** The planner's fields of a scenario file (`schedule`, `pool`) and its token checks, read and checked. */

import { dirname, resolve } from 'node:path';
import type { Issue, SourcePosition } from '../core/issue.js';
import { defaultLimits } from '../limits/default-limits.js';
import type { LimitsCaller } from '../limits/identity.js';
import type { PolicyTables } from '../policy/tables.js';
import { readTextFile } from '../tables/load-tables.js';
import { parseTokenText } from '../tables/token-text.js';
import type { Pool } from './pool.js';
import { poolProblems } from './pool.js';
import { type Schedule, scheduleProblems } from './schedule.js';
import { DURATION_FORMS, durationSeconds } from './schedule-duration.js';
import { tokenFactProblems } from './token-facts.js';

/** `schedule` as a file writes it: durations as numbers (seconds) or texts such as `10m`. */
export interface RawSchedule {
  readonly start?: number | string;
  readonly every?: number | string;
  readonly for?: number | string;
  readonly times?: number;
  readonly burst?: number;
}

/** `pool` as a file writes it. */
export interface RawPool {
  readonly users?: number;
  readonly tokens_per_user?: number;
  readonly installations?: number;
}

type Locate = (path: readonly (string | number)[]) => SourcePosition;

/** An inline scenario token's identity facts, as the file spells them. */
interface RawFacts {
  readonly kind: LimitsCaller['kind'];
  readonly enterprise_cloud?: boolean;
  readonly repositories_count?: number;
  readonly users_count?: number;
}

/**
 * The facts of a caller's token that the planner checks: inline, or read from its token file
 * (relative to the scenario); null when the token file itself has problems (reported apart).
 * @example
 * // plannerTokenFacts({ kind: 'classic', enterprise_cloud: true }, 'scenario.yaml', tables)
 * // -> { kind: 'classic', enterpriseCloud: true }
 */
export function plannerTokenFacts(
  token: RawFacts | string,
  file: string,
  tables: PolicyTables,
): LimitsCaller | null {
  if (typeof token === 'string') {
    const tokenFile = resolve(dirname(file), token);
    try {
      return parseTokenText(readTextFile(tokenFile), tokenFile, tables).token ?? null;
    } catch {
      return null; // an unreadable token file is reported by the token check
    }
  }
  return {
    kind: token.kind,
    ...(token.enterprise_cloud === undefined ? {} : { enterpriseCloud: token.enterprise_cloud }),
    ...(token.repositories_count === undefined ? {} : { repositoriesCount: token.repositories_count }),
    ...(token.users_count === undefined ? {} : { usersCount: token.users_count }),
  };
}

const DURATION_FIELDS = ['start', 'every', 'for'] as const;

function readSchedule(raw: RawSchedule): { schedule: Schedule; bad: (typeof DURATION_FIELDS)[number][] } {
  const bad: (typeof DURATION_FIELDS)[number][] = [];
  const out: { -readonly [K in keyof Schedule]: Schedule[K] } = {};
  for (const field of DURATION_FIELDS) {
    if (raw[field] === undefined) continue;
    const seconds = durationSeconds(raw[field]);
    if (seconds === null) bad.push(field);
    else out[field] = seconds;
  }
  if (raw.times !== undefined) out.times = raw.times;
  if (raw.burst !== undefined) out.burst = raw.burst;
  return { schedule: out, bad };
}

function readPool(raw: RawPool): Pool {
  return raw.installations !== undefined
    ? { installations: raw.installations }
    : {
        users: raw.users!,
        ...(raw.tokens_per_user === undefined ? {} : { tokensPerUser: raw.tokens_per_user }),
      };
}

/**
 * The problems of caller `c`'s planner fields and token facts, as issues located in the file.
 * @example
 * // plannerFieldIssues({ schedule: { every: 'hourly' }, token }, 0, 86400, document.locate)
 * // -> [{ code: 'bad_schedule', message: 'caller `x`: `schedule.every` is `hourly`: expected seconds as a number, ...' }]
 */
export function plannerFieldIssues(
  caller: {
    readonly name: string;
    readonly schedule?: RawSchedule;
    readonly pool?: RawPool;
    readonly work?: number;
    readonly start_seconds?: number;
    readonly stop_seconds?: number;
  },
  token: LimitsCaller | null,
  c: number,
  duration: number | undefined,
  locate: Locate,
): Issue[] {
  const issues: Issue[] = [];
  const at = (code: string, message: string, path: readonly (string | number)[]) =>
    issues.push({
      code,
      message: `caller \`${caller.name}\`: ${message}`,
      path: ['callers', c, ...path],
      source: locate(['callers', c, ...path]),
    });
  if (token !== null)
    for (const problem of tokenFactProblems(token, defaultLimits()))
      at('inapplicable_fact', problem, ['token']);
  if (caller.schedule !== undefined && (caller.start_seconds ?? caller.stop_seconds) !== undefined)
    at(
      'bad_schedule',
      '`schedule` sets when the caller runs: give it or `start_seconds`/`stop_seconds`, not both',
      ['schedule'],
    );
  if (caller.schedule !== undefined) {
    const { schedule, bad } = readSchedule(caller.schedule);
    for (const field of bad)
      at(
        'bad_duration',
        `\`schedule.${field}\` is \`${String(caller.schedule[field])}\`: expected ${DURATION_FORMS}`,
        ['schedule', field],
      );
    if (bad.length === 0) {
      for (const problem of scheduleProblems(schedule, duration))
        at('bad_schedule', `\`schedule\`: ${problem}`, ['schedule']);
      if (schedule.burst !== undefined && caller.work !== undefined)
        at(
          'bad_schedule',
          "`schedule.burst` is the work of each run: give `burst` or the caller's `work`, not both",
          ['schedule', 'burst'],
        );
    }
  }
  if (caller.pool !== undefined) {
    for (const problem of token === null ? [] : poolProblems(readPool(caller.pool), token.kind))
      at('bad_pool', `\`pool\`: ${problem}`, ['pool']);
    const pool = readPool(caller.pool);
    const tokens = 'users' in pool ? pool.users * (pool.tokensPerUser ?? 1) : pool.installations;
    if (caller.work !== undefined && caller.work < tokens)
      at(
        'bad_pool',
        `\`pool\`: ${tokens} tokens share a \`work\` of ${caller.work}: some would have nothing to do`,
        ['pool'],
      );
  }
  return issues;
}

/**
 * The planner's fields of a caller that passed `plannerFieldIssues`, in the scenario's types.
 * @example
 * import { plannerFields } from './plan-read-fields.js';
 * plannerFields({ schedule: { start: '10m', every: '1h', for: '5m' }, pool: { users: 3 } });
 * // { schedule: { start: 600, every: 3600, for: 300 }, pool: { users: 3 } }
 */
export function plannerFields(caller: { readonly schedule?: RawSchedule; readonly pool?: RawPool }): {
  schedule?: Schedule;
  pool?: Pool;
} {
  return {
    ...(caller.schedule === undefined ? {} : { schedule: readSchedule(caller.schedule).schedule }),
    ...(caller.pool === undefined ? {} : { pool: readPool(caller.pool) }),
  };
}

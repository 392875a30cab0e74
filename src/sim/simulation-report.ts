/** What `simulate` returns: per caller, per rule and per identity, with series over time. */
import type { LimitRule } from '../limits/limits-config.js';
import type { IdentityReport, RuleReport, Series } from './report-types.js';

/**
 * What the caller's token held: as the scenario stated it, or (`derived`) the least grant its
 * mix needs when the scenario stated only a kind.
 * @example
 * import type { CallerGrant } from './simulation-report.js';
 * const grant: CallerGrant = { source: 'derived', permissions: { issues: 'read' } };
 */
export interface CallerGrant {
  readonly source: 'stated' | 'derived';
  readonly scopes?: readonly string[];
  readonly permissions?: Readonly<Record<string, string>>;
}

/**
 * What one caller did and met. Times in virtual seconds from the start.
 * @example
 * import { simulate } from './simulate.js';
 * import type { CallerReport } from './simulation-report.js';
 * const report = simulate({ seed: 1, durationSeconds: 60, callers: [{ name: 'a', token: { kind: 'anonymous', ip: '198.51.100.7' }, behaviour: 'polite', mix: [{ endpoint: 'GET /rate_limit', weight: 1 }] }] });
 * const caller: CallerReport = report.callers[0]!;
 * caller.identity; // 'ip:198.51.100.7'
 */
export interface CallerReport {
  readonly name: string;
  readonly kind: string;
  readonly behaviour: string;
  /** The limiter's key for the caller's identity (`user:octocat`, `installation:42`, `ip:…`). */
  readonly identity: string;
  /** Requests sent, retries included. */
  readonly sent: number;
  readonly admitted: number;
  readonly completed: number;
  /** The requests the caller had to complete, or null when it runs until the scenario ends. */
  readonly work: number | null;
  /** Refusals by the rule that refused (`policy` counts no rule: see `policyDenied`). */
  readonly denied: Readonly<Partial<Record<LimitRule, number>>>;
  /** Per rule that refused at least once: refusals, time limited, first refusal. */
  readonly rules: Readonly<Partial<Record<LimitRule, RuleReport>>>;
  /** When a limit first refused the caller; null when none did. */
  readonly firstRefusalAt: number | null;
  /** Requests given up after the client rules said to stop retrying. */
  readonly abandoned: number;
  /** Requests sent while an earlier answer had said to wait: the seed warns these can get an integration banned. */
  readonly sentWhileLimited: number;
  /** Virtual seconds during which some answer had told the caller to wait (0 only when no limit refused it). */
  readonly limitedSeconds: number;
  /** When the caller's `work` was done; null without work, or when it was not done in time. */
  readonly workDoneAt: number | null;
  readonly series: Series;
  readonly grant: CallerGrant;
  /** Requests the policy refused (token kind not accepted, missing permission, private resource unseen): counted by the limits, never served. */
  readonly policyDenied: number;
  /**
   * Of `policyDenied`, the requests refused because the seeds do not show what the endpoint needs
   * for this token (`requirement_not_shown`): tollgate's choice (`unshownScopes: 'deny'`), not the
   * service's stated rule.
   */
  readonly policyUnshown?: number;
}

/**
 * A whole run's report.
 * @example
 * import { simulate } from './simulate.js';
 * import type { SimulationReport } from './simulation-report.js';
 * const report: SimulationReport = simulate({ seed: 1, durationSeconds: 60, callers: [] });
 * report.seconds; // 60
 */
export interface SimulationReport {
  readonly seed: number;
  /** Virtual seconds simulated. */
  readonly seconds: number;
  readonly callers: readonly CallerReport[];
  /** One summary per identity the limits count, callers that share it together. */
  readonly identities: readonly IdentityReport[];
  /** Refusals by rule, all callers together. */
  readonly limits: Readonly<Partial<Record<LimitRule, number>>>;
  /** Requests simulated (sent), for the bench. */
  readonly requests: number;
  /** The windowed rules the scenario counts as buckets (`window_modes`): up to twice the seed's "at most" within one window. */
  readonly bucketRules?: readonly string[];
}

/**
 * Options of `simulate`.
 * @example
 * import type { SimulateOptions } from './simulation-report.js';
 * const options: SimulateOptions = { onProgress: (done: number) => console.error(Math.round(done * 100)) };
 */
export interface SimulateOptions {
  /** Called now and then with the share of the run done (0 to 1), for a progress bar. */
  readonly onProgress?: (done: number) => void;
  /**
   * Refuse a scenario estimated above this many simulated requests, up front (default 10^9;
   * `Infinity` runs anything: memory stays bounded, but time does not).
   */
  readonly requestCap?: number;
}

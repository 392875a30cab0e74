/** What a simulation runs: callers, their tokens, workers, pace, request mix, and how they behave when limited. */
import type { Level } from '../core/token.js';
import type { LimitsCaller } from '../limits/identity.js';
import type { LimitsConfig, WindowMode } from '../limits/limits-config.js';
import type { WindowedRule } from '../limits/windowed-rules.js';
// sim-planner: pools and schedules, expanded by expandScenario before the engine runs.
import type { Pool } from './pool.js';
import type { Distribution } from './random.js';
import type { Schedule } from './schedule.js';

/** How a client reacts to a limited answer. */
export type Behaviour = 'polite' | 'greedy' | 'fixed-rate' | 'octokit';
export const BEHAVIOURS: readonly Behaviour[] = ['polite', 'greedy', 'fixed-rate', 'octokit'];

/** One endpoint of the request mix, by its key in the table (`GET /notifications`), with a weight. */
export interface MixEntry {
  readonly endpoint: string;
  readonly weight: number;
}

/**
 * A caller's token as a token file states it: its kind and identity facts, and what it holds
 * (`scopes` for classic kinds, `permissions` and `repositories` for fine-grained kinds). A token
 * stating only its kind holds what its mix needs (the least grant; the report says `derived`).
 */
export type CallerToken = LimitsCaller & {
  readonly scopes?: readonly string[];
  readonly permissions?: Readonly<Record<string, Level>>;
  readonly repositories?: 'all' | readonly string[];
};

/** How a client retries a limited request (polite: the client rules' bounds; octokit: its handlers' retries). */
export interface RetrySettings {
  /** polite: failures before a request is given up (default 5); octokit: retries its handlers allow (default 1). */
  readonly maxRetries?: number;
  /** polite: the least wait of rule 4, seconds (default 60). */
  readonly minWaitSeconds?: number;
  /** polite: the growth of rule 4's wait per failure (default 2). */
  readonly backoffFactor?: number;
}

/**
 * The throttling plugin's numbers, for a client built with other Bottleneck groups (the plugin's
 * `throttle.write`, `.notifications`, `.search`, `.global` options); defaults are the plugin's.
 */
export interface OctokitSettings {
  /** Requests in flight at most (the global group's maxConcurrent). Default 10. */
  readonly maxConcurrent?: number;
  /** ms between two writes or GraphQL requests (the write group's minTime). Default 1,000. */
  readonly writeSpacingMs?: number;
  /** ms between two writes that trigger notifications. Default 3,000. */
  readonly notificationSpacingMs?: number;
  /** ms between two searches. Default 2,000. */
  readonly searchSpacingMs?: number;
}

export interface CallerSpec {
  readonly name: string;
  /** Who calls: the token kind, the identity facts the limits read, and what the token holds. */
  readonly token: CallerToken;
  /** Requests in flight at most (each worker waits for its answer). Default 1. */
  readonly workers?: number;
  /** Offered requests per second, all workers together; default: as fast as answers come back. */
  readonly rate?: number;
  /** Requests to complete; the caller stops then. Default: until the simulation ends. */
  readonly work?: number;
  readonly mix: readonly MixEntry[];
  /** The service's answer time, ms. Default 50. */
  readonly latencyMs?: Distribution;
  /** The CPU a request costs the service, ms, charged when it completes. Default 5. */
  readonly cpuMs?: Distribution;
  readonly behaviour: Behaviour;
  /**
   * A poller: it waits what `X-Poll-Interval` says between requests and sends `If-Modified-Since`,
   * so the service answers 304 (refunded) to `unchanged` of its polls (a share, 0 to 1).
   */
  readonly poll?: { readonly unchanged: number };
  // sim-engine: tokens, visibility, retries, the active span.
  /** Visibility of the repositories and organizations the caller's requests name (default `private`). */
  readonly visibility?: 'public' | 'private';
  readonly retry?: RetrySettings;
  /** The octokit behaviour's spacing and cap, when the client changed the plugin's. */
  readonly octokit?: OctokitSettings;
  /** Virtual seconds from the run's start before which the caller sends nothing. Default 0. */
  readonly startSeconds?: number;
  /** Virtual seconds from the run's start from which the caller sends nothing new. Default: never. */
  readonly stopSeconds?: number;
  // sim-planner: expanded by expandScenario (expand-scenario.ts); the engine never sees them.
  /** When the caller runs: start offset, runs of a set length, repetition, bursts. Default: from the start, once. */
  readonly schedule?: Schedule;
  /** Run by this many users (their tokens sharing each user's budget) or installations. */
  readonly pool?: Pool;
}

export interface Scenario {
  /** Every draw of the run comes from this seed. */
  readonly seed: number;
  /** Virtual seconds to simulate; without it, until every caller's work is done. */
  readonly durationSeconds?: number;
  /** Virtual start time, epoch ms. Default 2026-01-01T00:00:00Z. */
  readonly start?: number;
  /** Window modes of the per-minute and per-hour rules, over the limits table's. */
  readonly windowModes?: Readonly<Partial<Record<WindowedRule, WindowMode>>>;
  readonly callers: readonly CallerSpec[];
  // sim-engine: limits over the shipped table.
  /** The limits to run under, over `simulate`'s own argument (a scenario file's `limits` overlay, compiled). */
  readonly limits?: LimitsConfig;
}

/** What the text and HTML reports read of a simulation report (the contract's fields), until the engine's shape lands. */
import type { LimitRule } from '../limits/index.js';
import type { IdentityReport, RuleReport, Series } from './report-types.js';

export interface CallerInput {
  readonly name: string;
  readonly kind: string;
  readonly behaviour: string;
  readonly identity: string;
  readonly sent: number;
  readonly admitted: number;
  readonly completed: number;
  readonly work: number | null;
  readonly denied: Readonly<Partial<Record<LimitRule, number>>>;
  readonly rules: Readonly<Partial<Record<LimitRule, RuleReport>>>;
  readonly firstRefusalAt: number | null;
  readonly abandoned: number;
  readonly sentWhileLimited: number;
  readonly limitedSeconds: number;
  readonly workDoneAt: number | null;
  readonly series: Series;
  readonly grant: {
    readonly source: 'stated' | 'derived';
    readonly scopes?: readonly string[];
    readonly permissions?: Readonly<Record<string, string>>;
  };
  /** Requests the policy refused (token kind, permission, private resource): no rule counts them. */
  readonly policyDenied?: number;
}

export interface ReportInput {
  readonly seed: number;
  readonly seconds: number;
  readonly requests: number;
  readonly callers: readonly CallerInput[];
  readonly identities: readonly IdentityReport[];
  /** The planner's advice, one per caller, when `--recommend` computed it. */
  readonly recommendations?: readonly AdviceInput[];
}

/** The fields of the planner's `PlannerAdvice` the HTML page shows (until sim-planner's type is merged). */
export interface AdviceInput {
  readonly caller: string;
  readonly identity: string;
  readonly sharedWith: readonly string[];
  readonly work: number | null;
  readonly rate: number;
  readonly workers: number;
  readonly unpaced: boolean;
  readonly binding: { readonly text: string } | null;
  readonly workDoneAt: number | null;
  readonly fastestWorkDoneAt: number | null;
  readonly refused: number;
  readonly polite: {
    readonly workDoneAt: number | null;
    readonly refusals: number;
    readonly sooner: boolean;
  } | null;
  readonly howMany: {
    readonly unit: 'users' | 'installations';
    readonly work: number;
    readonly withinSeconds: number;
    readonly count: number | null;
    readonly workDoneAt: number | null;
    readonly fewerWorkDoneAt: number | null;
    readonly searchedUpTo: number;
  } | null;
}

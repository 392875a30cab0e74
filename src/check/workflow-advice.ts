/** What a workflow job's report adds to a check report, in the workflow `permissions:` vocabulary. */
import type { Level } from '../core/token.js';

/** What a workflow job's report adds: the block it holds, the least block to paste, and advice. */
export interface WorkflowAdvice {
  readonly file: string;
  readonly composite: boolean;
  /** True when the job states no `permissions:` (tollgate assumed `read-all`). */
  readonly defaulted: boolean;
  /** The block the job holds, in workflow keys. */
  readonly held: Readonly<Record<string, Level>>;
  /** The least block for the judged calls, in workflow keys. */
  readonly least: Readonly<Record<string, Level>>;
  /** `least` as a block a user can paste. */
  readonly leastText: string;
  /** What some call needs that a workflow token cannot hold. */
  readonly cannotHold: readonly string[];
  /** Why "unused" was not computed (opaque steps, calls not judged, no block stated), or null. */
  readonly unusedWithheld: string | null;
  /** One line each: what to do. */
  readonly advice: readonly string[];
}

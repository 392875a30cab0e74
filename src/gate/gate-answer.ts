/** What the gate answers an adapter: pass the request on, or answer it, and how to settle it afterwards. */
import type { Verdict } from '../limits/verdict.js';
import type { Decision } from '../policy/types.js';

/** Settles the request's in-flight slot once its response has ended. Each method acts once; later calls do nothing. */
export interface Settle {
  /** The response was sent with `status`; `cpuMs` overrides the gate's own CPU measure. A 304 is refunded. */
  finish(status: number, cpuMs?: number): void | Promise<void>;
  /** The client went away or the handler failed before a response: the slot is freed. */
  abort(): void | Promise<void>;
}

/** Pass the request on to the handler, adding `headers` to whatever it answers. */
export interface PassAnswer {
  readonly action: 'pass';
  readonly headers: Readonly<Record<string, string>>;
  /** Null when the gate did not decide the request (`skip`, a CORS preflight passed on). */
  readonly decision: Decision | null;
  /** Null when the limits were not consulted (pass-through, `skip`, a CORS preflight). */
  readonly verdict: Verdict | null;
  /** Null when nothing was charged, so there is nothing to settle. */
  readonly settle: Settle | null;
}

/** Answer the request here: status, headers and a JSON body (empty for HEAD). */
export interface RespondAnswer {
  readonly action: 'respond';
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Null when tollgate answered before matching an endpoint or resolving the caller. */
  readonly decision: Decision | null;
  /** Null when the limits were not consulted (bad credentials, bad path, unknown endpoint, ...). */
  readonly verdict: Verdict | null;
  /** Why: a Decision reason, a limit rule (`rest_points`, ...), `bad_credentials` or `rate_limit`. */
  readonly reason: string;
}

/**
 * The gate's answer to one request.
 * @example
 * import type { GateAnswer } from 'tollgate';
 * function describe(answer: GateAnswer): string {
 *   return answer.action === 'pass' ? 'to the handler' : `${answer.status} ${answer.reason}`;
 * }
 */
export type GateAnswer = PassAnswer | RespondAnswer;

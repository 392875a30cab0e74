/** The gate's hooks at run time: requests kept away from it, `onDecision`, `onError`. Each is null when not set. */
import { TollgateError } from '../core/errors.js';
import type { GateAnswer, PassAnswer } from './gate-answer.js';
import type { GateHookOptions } from './gate-hook-options.js';
import type { RequestFacts } from './request-facts.js';

/** The answer for a request kept away from the gate: passed on, nothing charged, no header. Shared: it holds nothing. */
export const UNGATED: PassAnswer = Object.freeze({
  action: 'pass',
  headers: Object.freeze({}),
  decision: null,
  verdict: null,
  settle: null,
});

/**
 * Whether a request stays away from the gate: `skip`, or a CORS preflight under `corsPreflight:
 * 'pass'` (the default). Null when nothing can be kept away, so the gate tests nothing per request.
 * @example
 * import { bypassOf } from './gate-hooks.js';
 * const bypass = bypassOf({ skip: (facts) => facts.target === '/healthz' });
 * bypass?.({ method: 'GET', target: '/healthz', header: () => undefined }); // true
 */
export function bypassOf(options: GateHookOptions): ((facts: RequestFacts) => boolean) | null {
  const skip = options.skip;
  const preflight = (options.corsPreflight ?? 'pass') === 'pass';
  if (!preflight) return skip ?? null;
  // A preflight: OPTIONS asking for another method (Fetch standard, "CORS-preflight request").
  const isPreflight = (facts: RequestFacts): boolean =>
    facts.method.length === 7 &&
    facts.method.toUpperCase() === 'OPTIONS' &&
    facts.header('access-control-request-method') !== undefined;
  if (skip === undefined) return isPreflight;
  return (facts) => isPreflight(facts) || skip(facts) === true;
}

/**
 * `onDecision` around the gate's answers: the hook sees each one, and an object it returns for a
 * refusal becomes that refusal's JSON body (a HEAD answer keeps its empty body). Null when unset.
 * @example
 * import { decisionHookOf } from './gate-hooks.js';
 * const hook = decisionHookOf({ onDecision: () => ({ error: 'nope' }) });
 * const facts = { method: 'GET', target: '/x', header: () => undefined };
 * hook?.({ action: 'respond', status: 404, headers: {}, body: '{}', decision: null, verdict: null, reason: 'unknown_endpoint' }, facts);
 * // { ..., body: '{"error":"nope"}' }
 */
export function decisionHookOf(
  options: GateHookOptions,
): ((answer: GateAnswer, facts: RequestFacts) => GateAnswer) | null {
  const onDecision = options.onDecision;
  if (onDecision === undefined) return null;
  return (answer, facts) => {
    const replacement = onDecision(answer.decision, answer.verdict, facts);
    if (replacement === undefined || replacement === null) return answer;
    if (typeof replacement !== 'object' || typeof (replacement as { then?: unknown }).then === 'function')
      throw new TollgateError(
        'TOLLGATE_INVALID_OPTION',
        `gate: \`onDecision\` must return nothing or a body object, synchronously; it returned \`${typeof replacement === 'object' ? 'a promise' : String(replacement)}\``,
      );
    if (answer.action !== 'respond' || answer.status < 400 || answer.body === '') return answer;
    return { ...answer, body: JSON.stringify(replacement) };
  };
}

/**
 * Tells `onError` (when set) about an error the gate or an adapter caught. An `onError` that throws
 * is itself written to `console.error`: a failing hook must not hide the error it was told.
 * @example
 * import { errorReporterOf } from './gate-hooks.js';
 * const seen: unknown[] = [];
 * const report = errorReporterOf({ onError: (error) => seen.push(error) });
 * report(new Error('token store down'), { method: 'GET', target: '/', header: () => undefined });
 * seen.length; // 1
 */
export function errorReporterOf(options: GateHookOptions): (error: unknown, facts: RequestFacts) => void {
  const onError = options.onError;
  if (onError === undefined) return () => {};
  return (error, facts) => {
    try {
      onError(error, facts);
    } catch (hookError) {
      console.error('tollgate: `onError` threw while told of an error', hookError);
    }
  };
}

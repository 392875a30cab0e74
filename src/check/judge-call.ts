/** One call's verdict: from the Decision of a token that holds nothing, and of the judging token. */

import type { EndpointEntry } from '../policy/tables.js';
import type { Decision } from '../policy/types.js';
import type { Call } from './call.js';

/**
 * What became of one call. `unjudged` (outside the table, GraphQL) and `unresolved` (no route
 * read) are the calls that were not judged: they never pass silently.
 */
export type Verdict = 'allowed' | 'denied' | 'never' | 'uncertain' | 'unresolved' | 'unjudged';

/** The verdicts of calls that were not judged. */
export const NOT_JUDGED: readonly Verdict[] = ['unresolved', 'unjudged'];

export interface CallResult {
  readonly call: Call;
  readonly verdict: Verdict;
  /** The Decision for the token (or the least grant); null for a call that was not judged. */
  readonly decision: Decision | null;
  /** Why the call is uncertain, never callable, denied or not judged, in one line. */
  readonly note: string | null;
}

/**
 * Why a call cannot be judged before any Decision, or null when it can: a GraphQL call (the
 * tables hold no GraphQL permissions), or a call whose route was not read.
 * @example
 * import { notJudgedBeforehand } from './judge-call.js';
 * const origin = { file: 'bot.ts', line: 3, column: 1 };
 * notJudgedBeforehand({ method: 'POST', path: '/graphql', origin, resolved: true, graphql: { operation: 'mutation', cost: 5 } })?.note;
 * // 'not judged: the tables hold no GraphQL permissions (mutation, 5 points)'
 */
export function notJudgedBeforehand(call: Call): CallResult | null {
  if (call.graphql !== undefined) {
    const { operation, cost } = call.graphql;
    const what = operation === 'unknown' ? 'operation not read' : operation;
    return {
      call,
      verdict: 'unjudged',
      decision: null,
      // seed 000, "Secondary limits": a query costs 1 point, a mutation 5.
      note: `not judged: the tables hold no GraphQL permissions (${what}, ${cost} point${cost === 1 ? '' : 's'})`,
    };
  }
  if (call.resolved && call.reason !== undefined)
    return { call, verdict: 'unjudged', decision: null, note: `not judged: ${call.reason}` };
  if (!call.resolved) {
    const candidates =
      call.candidates === undefined || call.candidates.length === 0
        ? ''
        : `; candidates: ${call.candidates.join(', ')}`;
    return {
      call,
      verdict: 'unresolved',
      decision: null,
      note: `not resolved: ${call.reason ?? 'the route is not a literal'}${candidates}`,
    };
  }
  return null;
}

/**
 * The verdict of a resolved call: `bare` is the Decision for a token of the kind that holds
 * nothing, `decision` the one for the judging token, `entry` the row the call matched.
 */
export function verdictOf(
  call: Call,
  bare: Decision,
  decision: Decision,
  entry: EndpointEntry | null,
): CallResult {
  if (decision.reason === 'bad_path' || decision.reason === 'unknown_endpoint')
    return {
      call,
      verdict: 'unjudged',
      decision,
      note:
        decision.reason === 'unknown_endpoint'
          ? `not judged: \`${call.method} ${call.path}\` is not in the table (state it in an overlay; --write-overlay FILE writes one to fill)`
          : `not judged: ${decision.message}`,
    };
  if (bare.reason === 'token_kind_not_accepted')
    return { call, verdict: 'never', decision, note: bare.message };
  if (!decision.allowed && decision.reason !== 'requirement_not_shown')
    return { call, verdict: 'denied', decision, note: decision.message };
  if (decision.reason === 'requirement_not_shown' || !decision.certain)
    return {
      call,
      verdict: 'uncertain',
      decision,
      note:
        decision.reason === 'requirement_not_shown'
          ? decision.message
          : `${decision.endpoint} is not certain: the seeds mark it, or do not show all it needs`,
    };
  if (entry?.ownerOnly === true)
    return {
      call,
      verdict: 'uncertain',
      decision,
      note: `${decision.endpoint} is for organization owners only`,
    };
  return { call, verdict: 'allowed', decision, note: null };
}

/** What goes to the limits script and what comes back: script arguments, answers as verdicts (the stored state: redis-state.ts). */

import { allowedVerdict, deniedVerdict } from '../limits/answers.js';
import {
  AdmissionTicket,
  type AdmitEvent,
  type CompleteEvent,
  type ReleaseEvent,
} from '../limits/limit-event.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import type { Verdict } from '../limits/verdict.js';
import { SCRIPT_RESOURCES, SCRIPT_RULES } from './redis-script.js';

/** The script's answer: numbers only (Lua tables become arrays). */
export type ScriptAnswer = readonly number[];

/** The answer of an admission that arrived after its deadline: the script charged nothing. */
export const EXPIRED = 2;

/**
 * Arguments of an admission: `a`, the clock ('' for the server's), resource, limit, cost, content,
 * graphql, counts-primary, deadline on the server's clock ('' for none); `x` and then the status and
 * CPU ms for an admission settled at once.
 * @example
 * import { admitArgs } from './redis-protocol.js';
 * admitArgs({ kind: 'admit', key: 'user:octocat', resource: 'core', limit: 5000, cost: 1, content: false, graphql: false, countsPrimary: true }, '', '');
 * // ['a', '', 1, 5000, 1, 0, 0, 1, '']
 */
export function admitArgs(event: AdmitEvent, clock: string, deadline: string): (string | number)[] {
  const args = [
    event.settle === undefined ? 'a' : 'x',
    clock,
    SCRIPT_RESOURCES.indexOf(event.resource) + 1,
    event.limit,
    event.cost,
    event.content ? 1 : 0,
    event.graphql ? 1 : 0,
    event.countsPrimary ? 1 : 0,
    deadline,
  ];
  if (event.settle !== undefined) args.push(event.settle.status, event.settle.cpuMs);
  return args;
}

/**
 * Arguments of a completion (`c`) or release (`r`) of a ticket.
 * @example
 * import { AdmissionTicket } from '../limits/limit-event.js';
 * import { settleArgs } from './redis-protocol.js';
 * const ticket = new AdmissionTicket('user:octocat', 'core', false, 5000, 0, -1, 7);
 * settleArgs({ kind: 'release', ticket, cpuMs: 0 }, ''); // ['r', '', 1, 0, 0, 0, 7, 0]
 */
export function settleArgs(event: CompleteEvent | ReleaseEvent, clock: string): (string | number)[] {
  const { ticket } = event;
  return [
    event.kind === 'complete' ? 'c' : 'r',
    clock,
    SCRIPT_RESOURCES.indexOf(ticket.resource) + 1,
    ticket.graphql ? 1 : 0,
    event.kind === 'complete' ? event.status : 0,
    event.cpuMs,
    ticket.id,
    ticket.countedReset,
  ];
}

/**
 * The verdict of an admission's answer: `[0, rule, used, reset, retryAt, reading]` (denied) or
 * `[1, used, reset, countedReset, ticketId]` (admitted, with a ticket).
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { admitVerdict } from './redis-protocol.js';
 * const event = { kind: 'admit', key: 'user:octocat', resource: 'core', limit: 5000, cost: 1, content: false, graphql: false, countsPrimary: true } as const;
 * admitVerdict([1, 1, 1_700_003_600_000, 1_700_003_600_000, 9], event, defaultLimits()).allowed; // true
 */
export function admitVerdict(answer: ScriptAnswer, event: AdmitEvent, config: LimitsConfig): Verdict {
  if (answer[0] === 0) {
    const [, rule, used, reset, retryAt, reading] = answer as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const name = SCRIPT_RULES[rule - 1]!;
    return deniedVerdict(name, event.key, event.resource, event.limit, used, reset, retryAt, reading, config);
  }
  const [, used, reset, countedReset, id] = answer as [number, number, number, number, number];
  const ticket = new AdmissionTicket(
    event.key,
    event.resource,
    event.graphql,
    event.limit,
    countedReset,
    -1,
    id,
  );
  return allowedVerdict(event.resource, event.limit, used, reset, ticket, config);
}

/**
 * The verdict of a completion's or release's answer `[held, used, reset]`.
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { AdmissionTicket } from '../limits/limit-event.js';
 * import { settleVerdict } from './redis-protocol.js';
 * const ticket = new AdmissionTicket('user:octocat', 'core', false, 5000, 0, -1, 7);
 * settleVerdict([1, 3, 1_700_003_600_000], ticket, defaultLimits()).remaining; // 4997
 */
export function settleVerdict(
  answer: ScriptAnswer,
  ticket: CompleteEvent['ticket'],
  config: LimitsConfig,
): Verdict {
  return allowedVerdict(ticket.resource, ticket.limit, answer[1]!, answer[2]!, null, config);
}

/** What goes to the limits script and what comes back: script arguments, answers as verdicts (the stored state: redis-state.ts). */

import { allowedVerdict, deniedVerdict, resetSeconds } from '../limits/answers.js';
import {
  AdmissionTicket,
  type AdmitEvent,
  type CompleteEvent,
  type ReleaseEvent,
} from '../limits/limit-event.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import type { Verdict } from '../limits/verdict.js';
import { type SCRIPT_RESOURCES, SCRIPT_RULES } from './redis-script.js';

/** The script's answer: numbers only (Lua tables become arrays). */
export type ScriptAnswer = readonly number[];

/** The answer of an admission that arrived after its deadline: the script charged nothing. */
export const EXPIRED = 2;

/** Resource numbers as the script reads them (1-based, SCRIPT_RESOURCES order). */
const RESOURCE_NUMBER = { core: 1, search: 2, graphql: 3, lfs: 4 } as const satisfies Record<
  (typeof SCRIPT_RESOURCES)[number],
  number
>;

/** The op codes of the script (the argument's first byte). */
const OP = { admit: 0x61, atOnce: 0x78, complete: 0x63, release: 0x72, reset: 0x7a } as const;

/** What a call tells the script; numbers it does not need are 0. */
interface CallFields {
  readonly op: number;
  readonly resource: number;
  readonly content?: boolean;
  readonly graphql?: boolean;
  readonly countsPrimary?: boolean;
  readonly clock: number | undefined;
  readonly limit?: number;
  readonly cost?: number;
  readonly deadline?: number | undefined;
  readonly status?: number;
  readonly cpuMs?: number;
  readonly id?: number;
  readonly countedReset?: number;
}

/**
 * The one argument of a call, as ARGS_FORMAT reads it: seven bytes (op, resource, content,
 * graphql, counts-primary, clock given, deadline given), then eight big-endian doubles (clock,
 * limit, cost, deadline, status, CPU ms, ticket id, counted reset). Binary, so the script reads
 * every number with one `struct.unpack` instead of parsing decimal strings.
 */
function callArg(f: CallFields): Buffer {
  const buffer = Buffer.allocUnsafe(71);
  buffer[0] = f.op;
  buffer[1] = f.resource;
  buffer[2] = f.content ? 1 : 0;
  buffer[3] = f.graphql ? 1 : 0;
  buffer[4] = f.countsPrimary ? 1 : 0;
  buffer[5] = f.clock === undefined ? 0 : 1;
  buffer[6] = f.deadline === undefined ? 0 : 1;
  buffer.writeDoubleBE(f.clock ?? 0, 7);
  buffer.writeDoubleBE(f.limit ?? 0, 15);
  buffer.writeDoubleBE(f.cost ?? 0, 23);
  buffer.writeDoubleBE(f.deadline ?? 0, 31);
  buffer.writeDoubleBE(f.status ?? 0, 39);
  buffer.writeDoubleBE(f.cpuMs ?? 0, 47);
  buffer.writeDoubleBE(f.id ?? 0, 55);
  buffer.writeDoubleBE(f.countedReset ?? 0, 63);
  return buffer;
}

/**
 * The argument of an admission (`x`: settled at once, with its status and CPU ms): the clock
 * reading (undefined: the server's `TIME`) and the deadline on the server's clock (undefined: none).
 * @example
 * import { admitArgs } from './redis-protocol.js';
 * admitArgs({ kind: 'admit', key: 'user:octocat', resource: 'core', limit: 5000, cost: 1, content: false, graphql: false, countsPrimary: true }, undefined, undefined)[0]!.length; // 71
 */
export function admitArgs(
  event: AdmitEvent,
  clock: number | undefined,
  deadline: number | undefined,
): [Buffer] {
  return [
    callArg({
      op: event.settle === undefined ? OP.admit : OP.atOnce,
      resource: RESOURCE_NUMBER[event.resource],
      content: event.content,
      graphql: event.graphql,
      countsPrimary: event.countsPrimary,
      clock,
      limit: event.limit,
      cost: event.cost,
      deadline,
      status: event.settle?.status ?? 0,
      cpuMs: event.settle?.cpuMs ?? 0,
    }),
  ];
}

/**
 * The argument of a completion or release of a ticket.
 * @example
 * import { AdmissionTicket } from '../limits/limit-event.js';
 * import { settleArgs } from './redis-protocol.js';
 * const ticket = new AdmissionTicket('user:octocat', 'core', false, 5000, 0, -1, 7);
 * settleArgs({ kind: 'release', ticket, cpuMs: 0 }, undefined)[0]!.readDoubleBE(55); // 7 (the ticket id)
 */
export function settleArgs(event: CompleteEvent | ReleaseEvent, clock: number | undefined): [Buffer] {
  const { ticket } = event;
  return [
    callArg({
      op: event.kind === 'complete' ? OP.complete : OP.release,
      resource: RESOURCE_NUMBER[ticket.resource],
      graphql: ticket.graphql,
      clock,
      status: event.kind === 'complete' ? event.status : 0,
      cpuMs: event.cpuMs,
      id: ticket.id,
      countedReset: ticket.countedReset,
    }),
  ];
}

/**
 * The argument of a reset (`limiter.reset`) of an identity.
 * @example
 * import { resetArgs } from './redis-protocol.js';
 * resetArgs(undefined)[0]![0]; // 122 ('z')
 */
export function resetArgs(clock: number | undefined): [Buffer] {
  return [callArg({ op: OP.reset, resource: 1, clock })];
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
  return allowedVerdict(event.resource, event.limit, used, resetSeconds(reset), ticket, config);
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
  return allowedVerdict(ticket.resource, ticket.limit, answer[1]!, resetSeconds(answer[2]!), null, config);
}

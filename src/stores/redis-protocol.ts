/** What goes to the limits script and what comes back: script arguments, answers as verdicts (the stored state: redis-state.ts). */

import { TollgateError } from '../core/errors.js';
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

/** The script's answer: a few numbers (decodeAnswer reads them from its bytes). */
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

/** The seven bytes every argument starts with: op, resource, content, graphql, counts-primary, clock given, deadline given. */
function argument(
  doubles: number,
  op: number,
  resource: number,
  content: boolean,
  graphql: boolean,
  countsPrimary: boolean,
  clock: number | undefined,
  deadline: number | undefined,
): Buffer {
  const buffer = Buffer.allocUnsafe(7 + 8 * doubles);
  buffer[0] = op;
  buffer[1] = resource;
  buffer[2] = content ? 1 : 0;
  buffer[3] = graphql ? 1 : 0;
  buffer[4] = countsPrimary ? 1 : 0;
  buffer[5] = clock === undefined ? 0 : 1;
  buffer[6] = deadline === undefined ? 0 : 1;
  buffer.writeDoubleLE(clock ?? 0, 7);
  return buffer;
}

/**
 * The argument of an admission (ARGS_FORMATS.admit; `x`, settled at once with its status and CPU
 * ms: ARGS_FORMATS.atOnce): the clock reading (undefined: the server's `TIME`) and the deadline
 * on the server's clock (undefined: none). Binary, so the script reads every number with one
 * `struct.unpack` instead of parsing decimal strings; little-endian, as the CPU holds doubles.
 * @example
 * import { admitArgs } from './redis-protocol.js';
 * admitArgs({ kind: 'admit', key: 'user:octocat', resource: 'core', limit: 5000, cost: 1, content: false, graphql: false, countsPrimary: true }, undefined, undefined)[0]!.length; // 39
 */
export function admitArgs(
  event: AdmitEvent,
  clock: number | undefined,
  deadline: number | undefined,
): [Buffer] {
  const { settle } = event;
  const buffer = argument(
    settle === undefined ? 4 : 6,
    settle === undefined ? OP.admit : OP.atOnce,
    RESOURCE_NUMBER[event.resource],
    event.content,
    event.graphql,
    event.countsPrimary,
    clock,
    deadline,
  );
  buffer.writeDoubleLE(event.limit, 15);
  buffer.writeDoubleLE(event.cost, 23);
  buffer.writeDoubleLE(deadline ?? 0, 31);
  if (settle !== undefined) {
    buffer.writeDoubleLE(settle.status, 39);
    buffer.writeDoubleLE(settle.cpuMs, 47);
  }
  return [buffer];
}

/**
 * The argument of a completion or release of a ticket (ARGS_FORMATS.settle).
 * @example
 * import { AdmissionTicket } from '../limits/limit-event.js';
 * import { settleArgs } from './redis-protocol.js';
 * const ticket = new AdmissionTicket('user:octocat', 'core', false, 5000, 0, -1, 7);
 * settleArgs({ kind: 'release', ticket, cpuMs: 0 }, undefined)[0]!.readDoubleLE(31); // 7 (the ticket id)
 */
export function settleArgs(event: CompleteEvent | ReleaseEvent, clock: number | undefined): [Buffer] {
  const { ticket } = event;
  const complete = event.kind === 'complete';
  const buffer = argument(
    5,
    complete ? OP.complete : OP.release,
    RESOURCE_NUMBER[ticket.resource],
    false,
    ticket.graphql,
    false,
    clock,
    undefined,
  );
  buffer.writeDoubleLE(complete ? event.status : 0, 15);
  buffer.writeDoubleLE(event.cpuMs, 23);
  buffer.writeDoubleLE(ticket.id, 31);
  buffer.writeDoubleLE(ticket.countedReset, 39);
  return [buffer];
}

/**
 * The argument of a reset (`limiter.reset`) of an identity (ARGS_FORMATS.reset).
 * @example
 * import { resetArgs } from './redis-protocol.js';
 * resetArgs(undefined)[0]![0]; // 122 ('z')
 */
export function resetArgs(clock: number | undefined): [Buffer] {
  return [argument(1, OP.reset, 1, false, false, false, clock, undefined)];
}

/**
 * The numbers of an answer as the script sends them: little-endian doubles, one after another
 * (a string reply costs Redis less than an array of numbers, and no decimal digits are parsed here).
 * @example
 * import { decodeAnswer } from './redis-protocol.js';
 * const reply = Buffer.alloc(16);
 * reply.writeDoubleLE(1, 0);
 * reply.writeDoubleLE(9, 8);
 * decodeAnswer(reply); // [1, 9]
 */
export function decodeAnswer(reply: unknown): ScriptAnswer {
  // A client whose callBuffer answers with something else (a wrapper forwarding to `call`, which
  // answers strings) is misconfigured, not Redis failing: said at once, never taken for an outage.
  if (!Buffer.isBuffer(reply))
    throw new TollgateError(
      'TOLLGATE_INVALID_OPTION',
      `redis store: the client's \`callBuffer\` answered ${reply === null ? 'null' : typeof reply}, not the reply's bytes; give a client whose callBuffer resolves to a Buffer (ioredis's does)`,
    );
  const answer = new Array<number>(reply.length >> 3);
  for (let i = 0; i < answer.length; i++) answer[i] = reply.readDoubleLE(i * 8);
  return answer;
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

/** What goes to the limits script and what comes back: script arguments, answers as verdicts, the stored state. */
import { TollgateError } from '../core/errors.js';
import {
  AdmissionTicket,
  type AdmitEvent,
  allowedVerdict,
  type CompleteEvent,
  deniedVerdict,
  type IdentityState,
  type LimitsConfig,
  type ReleaseEvent,
  type Verdict,
} from '../limits/index.js';
import { SCRIPT_RESOURCES, SCRIPT_RULES } from './redis-script.js';

/** The script's answer: numbers only (Lua tables become arrays). */
export type ScriptAnswer = readonly number[];

/** The answer of an admission that arrived after its deadline: the script charged nothing. */
export const EXPIRED = 2;

/**
 * Arguments of an admission: `a`, the clock ('' for the server's), resource, limit, cost, content,
 * graphql, counts-primary, deadline on the server's clock ('' for none).
 * @example
 * import { admitArgs } from './redis-protocol.js';
 * admitArgs({ kind: 'admit', key: 'user:octocat', resource: 'core', limit: 5000, cost: 1, content: false, graphql: false, countsPrimary: true }, '', '');
 * // ['a', '', 1, 5000, 1, 0, 0, 1, '']
 */
export function admitArgs(event: AdmitEvent, clock: string, deadline: string): (string | number)[] {
  return [
    'a',
    clock,
    SCRIPT_RESOURCES.indexOf(event.resource) + 1,
    event.limit,
    event.cost,
    event.content ? 1 : 0,
    event.graphql ? 1 : 0,
    event.countsPrimary ? 1 : 0,
    deadline,
  ];
}

/**
 * Arguments of a completion (`c`) or release (`r`) of a ticket.
 * @example
 * import { AdmissionTicket } from 'tollgate/limits';
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
 * import { AdmissionTicket, defaultLimits } from 'tollgate/limits';
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

const FIELDS = [
  'at',
  'inFlight',
  'restPoints',
  'graphqlPoints',
  'cpu',
  'graphqlCpu',
  'contentMinute',
  'contentHour',
  'coreReset',
  'coreUsed',
  'searchReset',
  'searchUsed',
  'graphqlReset',
  'graphqlUsed',
  'lfsReset',
  'lfsUsed',
] as const;

/** MessagePack number formats the script writes (ints of any width, float64): size and reader. */
const NUMBER_FORMATS = new Map<number, [size: number, read: (buffer: Buffer, at: number) => number]>([
  [0xcc, [2, (b, at) => b.readUInt8(at)]],
  [0xcd, [3, (b, at) => b.readUInt16BE(at)]],
  [0xce, [5, (b, at) => b.readUInt32BE(at)]],
  [0xcf, [9, (b, at) => Number(b.readBigUInt64BE(at))]],
  [0xd0, [2, (b, at) => b.readInt8(at)]],
  [0xd1, [3, (b, at) => b.readInt16BE(at)]],
  [0xd2, [5, (b, at) => b.readInt32BE(at)]],
  [0xd3, [9, (b, at) => Number(b.readBigInt64BE(at))]],
  [0xcb, [9, (b, at) => b.readDoubleBE(at)]],
]);

/** The numbers of the MessagePack sequence the script stores as an identity's state. */
function unpackNumbers(buffer: Buffer): number[] {
  const numbers: number[] = [];
  for (let at = 0; at < buffer.length; ) {
    const byte = buffer[at]!;
    // Fixints: the byte is the value (0 to 127, -32 to -1).
    if (byte <= 0x7f || byte >= 0xe0) {
      numbers.push(byte <= 0x7f ? byte : byte - 0x100);
      at += 1;
      continue;
    }
    const format = NUMBER_FORMATS.get(byte);
    if (format === undefined)
      throw new TollgateError(
        'TOLLGATE_STORE_UNAVAILABLE',
        `redis store: unexpected state byte 0x${byte.toString(16)}`,
      );
    numbers.push(format[1](buffer, at + 1));
    at += format[0];
  }
  return numbers;
}

/**
 * An identity's state from the bytes the script stored (its first 16 numbers).
 * @example
 * import { decodeState } from './redis-protocol.js';
 * decodeState(Buffer.from([0x05, 0x01])).inFlight; // 1
 */
export function decodeState(raw: Buffer): IdentityState {
  const numbers = unpackNumbers(raw);
  return Object.fromEntries(FIELDS.map((field, i) => [field, numbers[i] ?? 0])) as unknown as IdentityState;
}

/** An identity's value as the Redis script stores it (state, long logs, tickets), read back as IdentityState (the memory store's form). */
import { TollgateError } from '../core/errors.js';
import type { IdentityState } from '../limits/identity-state.js';
import type { LimitsConfig } from '../limits/limits-config.js';
import { logPlan } from '../limits/log-rules.js';
import { loadSlot } from '../limits/log-slot.js';
import { createSlidingLog, flattenLog } from '../limits/sliding-log.js';
import { eventErrors } from './redis-call-watch.js';

/** The one ioredis method reading needs. */
export interface RedisReader {
  getBuffer(key: string): Promise<Buffer | null>;
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
  [0xca, [5, (b, at) => b.readFloatBE(at)]],
  [0xcb, [9, (b, at) => b.readDoubleBE(at)]],
]);

/** The `size` entries of a log held apart at `from`, as `[time, weight, ...]`: after its 8-byte sum, 16 bytes per entry. */
function readLog(buffer: Buffer, from: number, size: number): number[] {
  const flat: number[] = [];
  for (let at = from + 8; at < from + 8 + size * 16; at += 16)
    flat.push(buffer.readDoubleBE(at), buffer.readDoubleBE(at + 8));
  return flat;
}

/** The entries a packed slot holds (none for 0). */
function slotEntries(slot: number, at: number): number[] {
  const log = createSlidingLog();
  loadSlot(log, slot, at);
  return flattenLog(log);
}

/** The 18 numbers of the MessagePack sequence the script stores first, and where they end. */
function unpackNumbers(buffer: Buffer): [numbers: number[], end: number] {
  const numbers: number[] = [];
  let at = 0;
  while (numbers.length < 18 && at < buffer.length) {
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
  return [numbers, at];
}

/**
 * The state of the identity whose key is `keys[0]`, or undefined: its numbers, its logs unpacked
 * (from the state's packed numbers, or held apart in the value: the number is minus their
 * entries), and the numbers of the rules counted in logs 0, as `step` shows them.
 * @example
 * import { Redis } from 'ioredis';
 * import { defaultLimits } from 'tollgate/limits';
 * import { readRedisState } from './redis-state.js';
 * const keys = ['tollgate:{user:octocat}:v2'];
 * const state = await readRedisState(new Redis(), keys, defaultLimits()); // undefined for an identity never seen
 */
export async function readRedisState(
  client: RedisReader,
  keys: readonly string[],
  config: LimitsConfig,
): Promise<IdentityState | undefined> {
  const raw = await client.getBuffer(keys[0]!).catch((error: unknown) => {
    // The key holds a value of another type: this identity's read fails alone (the store is not
    // paused for every identity's sake).
    if (String((error as Error | undefined)?.message).startsWith('WRONGTYPE'))
      eventErrors.add(error as Error);
    throw error;
  });
  if (raw === null) return undefined;
  let [numbers, at] = unpackNumbers(raw);
  const state = Object.fromEntries(FIELDS.map((field, i) => [field, numbers[i] ?? 0])) as Record<
    string,
    number
  >;
  const uses = logPlan(config).uses;
  const logs: number[][] = [];
  for (let i = 0; i < 6; i++) {
    const field = FIELDS[2 + i]!;
    const slot = uses[i] ? state[field]! : 0;
    if (uses[i]) state[field] = 0;
    if (slot < 0) {
      logs.push(readLog(raw, at, -slot));
      at += 8 - slot * 16;
    } else logs.push(slotEntries(slot, state.at!));
  }
  return { ...(state as unknown as IdentityState), logs };
}

/**
 * The sum each log held apart stores before its entries (LOG_RULES order; undefined for a log
 * packed in its number or empty). INVARIANT: it is the sum of the log's stored entries' weights
 * (a test holds every write to it; the script reads it instead of adding the entries up).
 * @example
 * import { defaultLimits } from 'tollgate/limits';
 * import { storedLogSums } from './redis-state.js';
 * storedLogSums(Buffer.from([0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), defaultLimits()); // six undefined
 */
export function storedLogSums(raw: Buffer, config: LimitsConfig): (number | undefined)[] {
  let [numbers, at] = unpackNumbers(raw);
  const uses = logPlan(config).uses;
  return uses.map((kept, i) => {
    const slot = kept ? numbers[2 + i]! : 0;
    if (!(slot < 0)) return undefined;
    const sum = raw.readDoubleBE(at);
    at += 8 - slot * 16;
    return sum;
  });
}

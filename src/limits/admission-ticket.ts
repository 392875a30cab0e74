/** The ticket an admission hands out (its contract, `Ticket`, and its class), and the store's private mark on it. */
import type { LimitsResource } from './limits-config.js';

/**
 * What an admitted request needs to be completed or released later, possibly on another server:
 * serialize it with JSON (`JSON.stringify(ticket)` or `ticket.toJSON()`), which carries every
 * field; a spread or `structuredClone` of an issued ticket drops `graphql` and `countedReset` (getters).
 * @example
 * import { createLimiter } from 'tollgate';
 * import type { Ticket } from 'tollgate/limits';
 * const limiter = createLimiter();
 * const verdict = limiter.admit({ identity: limiter.identify({ kind: 'classic', user: 'octocat' }) });
 * const ticket: Ticket | null = verdict.ticket; // null when denied
 */
export interface Ticket {
  readonly key: string;
  readonly resource: LimitsResource;
  readonly graphql: boolean;
  readonly limit: number;
  /** End (epoch ms) of the primary window the request was counted in; 0 when it did not count. */
  readonly countedReset: number;
  /**
   * Opaque to the limits: where the admitting store keeps the identity (the memory store's row),
   * so completing skips a lookup; -1 when the store gave none. Stores must verify it.
   */
  readonly hint: number;
  /**
   * The store's handle on the request's in-flight slot: the ticket is a claim on that slot, which
   * the store holds until the request is completed, released, or its lease runs out. Completing or
   * releasing a ticket whose slot the store does not hold changes nothing.
   */
  readonly id: number;
}

/**
 * `countedReset` and `graphql` as the ticket holds them, in one field: the whole epoch seconds
 * when that is exact and fits 31 bits, bit-inverted (`~seconds`, negative) for a GraphQL request
 * (a small integer kept in the object: the epoch-ms value would need a 16-byte heap number of its
 * own, and the flag a field of its own), else the epoch ms and the flag in a box (a state given to
 * `step` with a window end off a whole second, or a window ending after 2038).
 */
type CountedReset = number | { readonly ms: number; readonly graphql: boolean };

function encodeReset(ms: number, graphql: boolean): CountedReset {
  const seconds = ms / 1000;
  const whole = seconds | 0; // -0 becomes 0, as it reads back
  if (whole === seconds && whole >= 0 && whole * 1000 === ms) return graphql ? ~whole : whole;
  return { ms, graphql };
}

/** As encodeReset, from the window's end in epoch seconds (whole or not). */
function encodeSeconds(seconds: number, graphql: boolean): CountedReset {
  const whole = seconds | 0;
  if (whole === seconds && whole >= 0) return graphql ? ~whole : whole;
  return encodeReset(seconds * 1000, graphql);
}

/**
 * The ticket an admission hands out. It remembers the first answer to its completion or release,
 * so a second call (Node emits both `finish` and `close`) changes nothing. The memory is a private
 * field: declared with the object, so settling never reshapes it, and absent from its JSON (a
 * ticket stays plain data; a serialized copy does not carry it). `countedReset` and `graphql` are getters over
 * a compact private field (see CountedReset); `toJSON` keeps the JSON the plain fields gave.
 * @example
 * import { AdmissionTicket } from './admission-ticket.js';
 * const ticket = new AdmissionTicket('user:octocat', 'core', false, 5000, 0, -1, 1);
 * JSON.stringify(ticket); // '{"key":"user:octocat","resource":"core","graphql":false,"limit":5000,"countedReset":0,"hint":-1,"id":1}'
 */
export class AdmissionTicket implements Ticket {
  /**
   * One field for the ticket's two private facts, in turn (8 bytes less per ticket than two):
   * undefined, then the store that handed it out (a TicketIssuer, set once by `stamp`), then the
   * first answer to its completion or release. A ticket settled with an answer in hand is from no
   * store: its slot was freed, so a store given it again changes nothing, which is what it does
   * for a ticket it does not hold. An answer still to come (a promise: an asynchronous store in
   * front of the one that stamped it, which may not have seen the event yet) is kept beside the
   * stamp (Awaited), or the store behind would not know its own ticket and free no slot.
   */
  #held: unknown = undefined;
  #counted: CountedReset;
  readonly key: string;
  readonly resource: LimitsResource;
  readonly limit: number;
  readonly hint: number;
  readonly id: number;

  constructor(
    key: string,
    resource: LimitsResource,
    graphql: boolean,
    limit: number,
    countedReset: number,
    hint: number,
    id: number,
  ) {
    this.key = key;
    this.resource = resource;
    this.limit = limit;
    this.#counted = encodeReset(countedReset, graphql);
    this.hint = hint;
    this.id = id;
  }

  /**
   * A ticket whose counted window ends at `countedSeconds`, in epoch seconds (0: not counted), as
   * the kernel hands them out. Seconds, not ms: a window end is a whole second, which passes to
   * a call V8 did not inline as a small integer, where epoch ms would be boxed into a 16-byte
   * heap number on every admission. A window end off a whole second is kept exactly all the same.
   * @example
   * import { AdmissionTicket } from './admission-ticket.js';
   * AdmissionTicket.counted('user:octocat', 'core', false, 5000, 1_700_003_600, -1, 1).countedReset; // 1700003600000
   */
  static counted(
    key: string,
    resource: LimitsResource,
    graphql: boolean,
    limit: number,
    countedSeconds: number,
    hint: number,
    id: number,
  ): AdmissionTicket {
    const ticket = new AdmissionTicket(key, resource, graphql, limit, 0, hint, id);
    ticket.#counted = encodeSeconds(countedSeconds, graphql);
    return ticket;
  }

  /** End (epoch ms) of the primary window the request was counted in; 0 when it did not count. */
  get countedReset(): number {
    const counted = this.#counted;
    return typeof counted !== 'number' ? counted.ms : counted >= 0 ? counted * 1000 : ~counted * 1000;
  }

  /** A GraphQL request (GraphQL points and CPU rules) rather than REST. */
  get graphql(): boolean {
    const counted = this.#counted;
    return typeof counted === 'number' ? counted < 0 : counted.graphql;
  }

  /** The fields of Ticket, in the order a ticket's JSON has always had. */
  toJSON(): Ticket {
    return {
      key: this.key,
      resource: this.resource,
      graphql: this.graphql,
      limit: this.limit,
      countedReset: this.countedReset,
      hint: this.hint,
      id: this.id,
    };
  }

  /**
   * Marks `ticket` as handed out by `issuer`, an object private to one store; a ticket is marked
   * once. With `isFrom`, it replaces a WeakSet of issued tickets at a fraction of the cost.
   * @example
   * import { AdmissionTicket, TicketIssuer } from './admission-ticket.js';
   * const store = new TicketIssuer();
   * const ticket = new AdmissionTicket('user:octocat', 'core', false, 5000, 0, -1, 1);
   * AdmissionTicket.stamp(ticket, store);
   * AdmissionTicket.isFrom(ticket, store); // true
   */
  static stamp(ticket: AdmissionTicket, issuer: TicketIssuer): void {
    if (ticket.#held === undefined) ticket.#held = issuer;
  }

  /**
   * Whether `value` is a ticket `issuer` stamped: a copy, a JSON round trip, a ticket constructed
   * by hand or another store's ticket is not (the private field cannot be forged).
   * @example
   * import { AdmissionTicket, TicketIssuer } from './admission-ticket.js';
   * AdmissionTicket.isFrom({ key: 'user:octocat', id: 1 }, new TicketIssuer()); // false
   */
  static isFrom(value: unknown, issuer: TicketIssuer): boolean {
    if (typeof value !== 'object' || value === null || !(#held in value)) return false;
    const held = (value as AdmissionTicket).#held;
    return held === issuer || (held instanceof Awaited && held.issuer === issuer);
  }

  /** The first answer to `complete` or `release`, or undefined while the request is in flight. */
  settledAnswer(): unknown {
    const held = this.#held;
    return held instanceof TicketIssuer ? undefined : held instanceof Awaited ? held.answer : held;
  }

  /** Records the first answer (never undefined); later ones are ignored. */
  settle(answer: unknown): void {
    const held = this.#held;
    if (held instanceof TicketIssuer)
      this.#held = answer instanceof Promise ? new Awaited(held, answer) : answer;
    else if (held === undefined) this.#held = answer;
  }
}

/**
 * A store's private mark on the tickets it hands out (see `AdmissionTicket.stamp`): its own class,
 * so a ticket's one private field tells a stamp from a settled answer.
 * @example
 * import { AdmissionTicket, TicketIssuer } from './admission-ticket.js';
 * const issuer = new TicketIssuer();
 * const ticket = new AdmissionTicket('user:octocat', 'core', false, 5000, 0, -1, 1);
 * AdmissionTicket.stamp(ticket, issuer);
 * AdmissionTicket.isFrom(ticket, issuer); // true
 */
export class TicketIssuer {}

/** A stamped ticket's answer still to come, with the stamp kept (see AdmissionTicket's `#held`). */
class Awaited {
  constructor(
    readonly issuer: TicketIssuer,
    readonly answer: Promise<unknown>,
  ) {}
}

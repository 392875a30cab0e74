/** The events `step` consumes: a request arrives (admit), finishes (complete) or is aborted (release). */
import type { LimitsResource } from './limits-config.js';

// The ticket class lives in its own file; its importers name it from here as before.
export { AdmissionTicket, type Ticket, TicketIssuer } from './admission-ticket.js';

import type { Ticket } from './admission-ticket.js';

/**
 * A request arrives. It carries everything the rules need, so `step` never looks anything up:
 * the identity key, the resource, the caller's primary limit there, the point cost, and flags.
 * @example
 * import type { AdmitEvent } from 'tollgate/limits';
 * const event: AdmitEvent = { kind: 'admit', key: 'user:octocat', resource: 'core', limit: 5000,
 *   cost: 1, content: false, graphql: false, countsPrimary: true };
 */
export interface AdmitEvent {
  readonly kind: 'admit';
  /** Identity key (see `identityOf`). */
  readonly key: string;
  readonly resource: LimitsResource;
  /** The caller's primary limit on `resource`, requests per window (see `primaryLimits`). */
  readonly limit: number;
  /** Points of the secondary per-minute rule: 1 for GET/HEAD/OPTIONS, 5 otherwise, or the table's cost. */
  readonly cost: number;
  /** The request generates content (secondary 80 per minute, 500 per hour). */
  readonly content: boolean;
  /** A GraphQL request (GraphQL points and CPU rules) rather than REST. */
  readonly graphql: boolean;
  /** False for `GET /rate_limit`, which "does not count against the primary limit" (seed 000). */
  readonly countsPrimary: boolean;
  /** Opaque: where the store last kept this identity (see Ticket `hint`); stores verify it. */
  readonly hint?: number;
  /**
   * Settled at once with this status and CPU: a request answered without holding a slot (a
   * policy refusal that counts). The transition is admission then completion at the same instant,
   * in one store call; the verdict's ticket, if any, is held by no store. Only a store whose
   * `settlesAdmissions` is true receives it.
   */
  readonly settle?: { readonly status: number; readonly cpuMs: number } | undefined;
}

/**
 * The response was sent: frees the in-flight slot, charges the CPU time (seed 000: CPU is a
 * secondary rule) and refunds the primary count of a 304 (seed 000, "Polling rules", rule 2).
 * @example
 * import type { CompleteEvent } from 'tollgate/limits';
 * import { AdmissionTicket } from './limit-event.js';
 * const ticket = new AdmissionTicket('user:octocat', 'core', false, 5000, 1_700_003_600_000, -1, 1);
 * const event: CompleteEvent = { kind: 'complete', ticket, status: 200, cpuMs: 12 };
 */
export interface CompleteEvent {
  readonly kind: 'complete';
  readonly ticket: Ticket;
  readonly status: number;
  /** CPU time the request used, in milliseconds (rounded up). */
  readonly cpuMs: number;
}

/**
 * The request was aborted or the connection closed: frees the in-flight slot, charges any CPU used.
 * @example
 * import type { ReleaseEvent } from 'tollgate/limits';
 * import { AdmissionTicket } from './limit-event.js';
 * const ticket = new AdmissionTicket('user:octocat', 'core', false, 5000, 1_700_003_600_000, -1, 1);
 * const event: ReleaseEvent = { kind: 'release', ticket, cpuMs: 0 };
 */
export interface ReleaseEvent {
  readonly kind: 'release';
  readonly ticket: Ticket;
  readonly cpuMs: number;
}

/**
 * Any event of `step`.
 * @example
 * import type { LimitEvent } from 'tollgate/limits';
 * import { AdmissionTicket } from './limit-event.js';
 * const ticket = new AdmissionTicket('user:octocat', 'core', false, 5000, 1_700_003_600_000, -1, 1);
 * const events: LimitEvent[] = [
 *   { kind: 'admit', key: 'user:octocat', resource: 'core', limit: 5000, cost: 1, content: false, graphql: false, countsPrimary: true },
 *   { kind: 'release', ticket, cpuMs: 0 },
 * ];
 */
export type LimitEvent = AdmitEvent | CompleteEvent | ReleaseEvent;

/**
 * The identity key an event applies to.
 * @example
 * import { AdmissionTicket, eventKey } from './limit-event.js';
 * const ticket = new AdmissionTicket('user:octocat', 'core', false, 5000, 1_700_003_600_000, -1, 1);
 * eventKey({ kind: 'release', ticket, cpuMs: 0 }); // 'user:octocat'
 */
export function eventKey(event: LimitEvent): string {
  return event.kind === 'admit' ? event.key : event.ticket.key;
}

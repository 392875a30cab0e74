/** The limiter as the gate calls it: the endpoint's charge and a completion's facts as arguments. */
import type { LimitCharge } from '../core/limit-charge.js';
import { takesCallForms } from '../limiter/create-limiter.js';
import type { AdmitRequest, CompleteFacts, Limiter } from '../limiter/limiter.js';
import type { LimitsIdentity } from '../limits/identity.js';
import type { Ticket } from '../limits/limit-event.js';
import type { LimitsStore } from '../limits/limits-store.js';

/**
 * `limiter` itself when `createLimiter` made it; otherwise a view of it whose `admit` and
 * `complete` take the positional forms and call its object forms. A wrapper or a class written
 * against the object forms alone would read a bare identity as a request, or drop `cpuMs` and so
 * undercharge the CPU rule: translated here, every fact reaches it. Everything else is its own.
 * @example
 * import { createLimiter } from 'tollgate';
 * import { withCallForms } from './limiter-call-forms.js';
 * const limiter = createLimiter();
 * withCallForms(limiter) === limiter; // true
 */
export function withCallForms<S extends LimitsStore>(limiter: Limiter<S>): Limiter<S> {
  if (takesCallForms(limiter)) return limiter;
  const view = Object.create(limiter) as { -readonly [K in keyof Limiter<S>]: Limiter<S>[K] };
  view.admit = ((first: AdmitRequest | LimitsIdentity, charge?: LimitCharge, settle?: CompleteFacts) =>
    charge === undefined
      ? limiter.admit(first as AdmitRequest)
      : limiter.admit({ identity: first as LimitsIdentity, ...charge, settle })) as Limiter<S>['admit'];
  view.complete = ((ticket: Ticket, facts: CompleteFacts | number, cpuMs?: number) =>
    typeof facts === 'number'
      ? limiter.complete(ticket, { status: facts, cpuMs })
      : limiter.complete(ticket, facts)) as Limiter<S>['complete'];
  return view;
}

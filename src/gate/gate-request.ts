/** One request's record in the gate: its place in the CPU share and, once admitted, its settlement. */
import type { Limiter } from '../limiter/limiter.js';
import type { Ticket } from '../limits/limit-event.js';
import type { LimitsStore } from '../limits/limits-store.js';
import type { CpuMarked, CpuShare } from './cpu-share.js';
import type { Settle } from './gate-answer.js';
import type { RequestFacts } from './request-facts.js';

/** What every request of one gate settles with: made once per gate, shared by its records. */
export interface GateGround {
  readonly limiter: Limiter<LimitsStore>;
  readonly cpu: CpuShare;
  /** Where a store that fails to settle is told (the gate's `onError`), rather than left unhandled. */
  readonly report: (error: unknown, facts: RequestFacts) => void;
}

/**
 * The one object the gate makes for a request it checks (profile of a server under load: the CPU
 * mark, the settlement and their closures were three allocations per request). It is the request's
 * CPU mark from its arrival, and, once `admitted` holds a ticket, the answer's Settle: each method
 * acts once, and only the first of them, since a response's end, the client going away and the
 * socket closing may all report the same request. A store that fails to settle is reported.
 * @example
 * import { createLimiter } from 'tollgate';
 * import { createCpuShare } from './cpu-share.js';
 * import { GateRequest } from './gate-request.js';
 * const limiter = createLimiter();
 * const ground = { limiter, cpu: createCpuShare(null), report: () => {} };
 * const request = new GateRequest(ground, { method: 'GET', target: '/', header: () => undefined });
 * const { ticket } = limiter.admit({ identity: limiter.identify({ kind: 'classic', user: 'octocat' }) });
 * request.admitted(ticket!).finish(200);
 * request.abort(); // does nothing: already settled
 */
export class GateRequest implements CpuMarked, Settle {
  from = 0;
  stopped = false;
  private ticket: Ticket | null = null;

  constructor(
    private readonly ground: GateGround,
    readonly facts: RequestFacts,
  ) {
    ground.cpu.startIn(this);
  }

  /** The request's share of the CPU so far, its mark stopped: 0 when it was stopped already. */
  stopCpu(): number {
    return this.ground.cpu.stop(this);
  }

  /** Holds `ticket` until the request settles; the record is then the answer's Settle. */
  admitted(ticket: Ticket): Settle {
    this.ticket = ticket;
    return this;
  }

  finish(status: number, cpuMs?: number): void | Promise<void> {
    const ticket = this.ticket;
    if (ticket === null) return;
    this.ticket = null;
    const share = this.ground.cpu.stop(this);
    try {
      const result = this.ground.limiter.complete(ticket, status, cpuMs ?? share);
      if (result instanceof Promise) return result.then(noValue, (error) => this.fault(error));
    } catch (error) {
      this.fault(error);
    }
  }

  abort(): void | Promise<void> {
    const ticket = this.ticket;
    if (ticket === null) return;
    this.ticket = null;
    try {
      const result = this.ground.limiter.release(ticket, this.ground.cpu.stop(this));
      if (result instanceof Promise) return result.then(noValue, (error) => this.fault(error));
    } catch (error) {
      this.fault(error);
    }
  }

  private fault(error: unknown): void {
    this.ground.report(error, this.facts);
  }
}

const noValue = (): void => undefined;

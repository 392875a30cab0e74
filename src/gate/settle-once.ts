/** A request's settlement: its slot freed and its CPU charged once, whichever ending comes first. */
import type { Limiter } from '../limiter/limiter.js';
import type { LimitsStore } from '../limits/limits-store.js';
import type { Verdict } from '../limits/verdict.js';
import type { CpuMark, CpuShare } from './cpu-share.js';
import type { Settle } from './gate-answer.js';
import type { RequestFacts } from './request-facts.js';

/**
 * The Settle of one admitted request. Each method acts once, and only the first of them: a
 * response's end, the client going away and the socket closing may all report the same request.
 * A store that fails to settle is reported (`report`) rather than left as an unhandled rejection.
 * @example
 * import { createLimiter } from 'tollgate';
 * import { createCpuShare } from './cpu-share.js';
 * import { settleOnce } from './settle-once.js';
 * const limiter = createLimiter();
 * const cpu = createCpuShare(null);
 * const { ticket } = limiter.admit({ identity: limiter.identify({ kind: 'classic', user: 'octocat' }) });
 * const settle = settleOnce(limiter, ticket!, cpu, cpu.start(), { method: 'GET', target: '/', header: () => undefined }, () => {});
 * settle.finish(200);
 * settle.abort(); // does nothing: already settled
 */
export function settleOnce(
  limiter: Limiter<LimitsStore>,
  ticket: NonNullable<Verdict['ticket']>,
  cpu: CpuShare,
  mark: CpuMark,
  facts: RequestFacts,
  report: (error: unknown, facts: RequestFacts) => void,
): Settle {
  return new SettleOnce(limiter, ticket, cpu, mark, facts, report);
}

// One object per admitted request, its methods on the prototype: no closures and no context
// object per request (profile of the node adapter's server: the closures' allocations showed).
class SettleOnce implements Settle {
  private settled = false;

  constructor(
    private readonly limiter: Limiter<LimitsStore>,
    private readonly ticket: NonNullable<Verdict['ticket']>,
    private readonly cpu: CpuShare,
    private readonly mark: CpuMark,
    private readonly facts: RequestFacts,
    private readonly report: (error: unknown, facts: RequestFacts) => void,
  ) {}

  finish(status: number, cpuMs?: number): void | Promise<void> {
    if (this.settled) return;
    this.settled = true;
    const share = this.cpu.stop(this.mark);
    try {
      const result = this.limiter.complete(this.ticket, { status, cpuMs: cpuMs ?? share });
      if (result instanceof Promise) return result.then(noValue, (error) => this.report(error, this.facts));
    } catch (error) {
      this.report(error, this.facts);
    }
  }

  abort(): void | Promise<void> {
    if (this.settled) return;
    this.settled = true;
    try {
      const result = this.limiter.release(this.ticket, this.cpu.stop(this.mark));
      if (result instanceof Promise) return result.then(noValue, (error) => this.report(error, this.facts));
    } catch (error) {
      this.report(error, this.facts);
    }
  }
}

const noValue = (): void => undefined;

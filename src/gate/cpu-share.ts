/** CPU time per request where a process serves many at once: the process's CPU, shared among the requests in flight. */

/** A request's place in the share, from its start. */
export interface CpuMark {
  readonly from: number;
  stopped: boolean;
}

/** A record that holds a request's place in the share itself (the gate's per-request record). */
export interface CpuMarked {
  from: number;
  stopped: boolean;
}

/** Marks a request's start and, at its end, tells the CPU time that was its share. */
export interface CpuShare {
  start(): CpuMark;
  /** As `start`, written into a record the caller allocates anyway: no mark object per request. */
  startIn(record: CpuMarked): void;
  /** The share, in ms, of the request of `mark`; 0 when it was stopped already. */
  stop(mark: CpuMark): number;
}

/**
 * Processor sharing: between two events, the CPU the process used is split evenly among the
 * requests in flight, and a request is charged the sum of its slices. The charges add up to the CPU
 * used while anything was in flight, and a request alone is charged exactly its own. Node cannot
 * tell which request an async continuation belongs to, so an even split is the honest estimate.
 * `cpuNow` reads the process's CPU time in ms; without one (a worker runtime) nothing is charged.
 * @example
 * import { createCpuShare } from './cpu-share.js';
 * let cpu = 0;
 * const share = createCpuShare(() => cpu);
 * const a = share.start();
 * const b = share.start();
 * cpu += 10; // both in flight: 5 ms each
 * share.stop(a); // 5
 * cpu += 4; // b alone
 * share.stop(b); // 9
 */
export function createCpuShare(cpuNow: (() => number) | null): CpuShare {
  if (cpuNow === null)
    return {
      start: () => ({ from: 0, stopped: false }),
      startIn: (record) => {
        record.from = 0;
        record.stopped = false;
      },
      stop: () => 0,
    };
  let inFlight = 0;
  // The CPU at the last event and the running sum of each slice's CPU divided by the requests
  // sharing it, in a typed array: doubles kept in a closure are boxed anew on every write (V8).
  const sums = new Float64Array(2);
  const LAST_CPU = 0;
  const PER_REQUEST = 1;
  sums[LAST_CPU] = cpuNow();
  const advance = (): number => {
    const cpu = cpuNow();
    if (inFlight > 0) sums[PER_REQUEST]! += (cpu - sums[LAST_CPU]!) / inFlight;
    sums[LAST_CPU] = cpu;
    return sums[PER_REQUEST]!;
  };
  return {
    start() {
      const from = advance();
      inFlight++;
      return { from, stopped: false };
    },
    startIn(record) {
      record.from = advance();
      record.stopped = false;
      inFlight++;
    },
    stop(mark) {
      if (mark.stopped) return 0;
      mark.stopped = true;
      const perRequest = advance();
      inFlight = Math.max(0, inFlight - 1);
      return Math.max(0, perRequest - mark.from);
    },
  };
}

/**
 * The process's CPU time in ms where the runtime has `process.cpuUsage` (Node, Bun, Deno), else
 * null. Reading it is a system call that costs about as much as a whole decision, so it is read
 * at most once per `resolutionMs` of wall time: CPU used since the last reading is shared among
 * the requests in flight at the next one. Charges still add up to the CPU the process used.
 */
export function processCpuClock(resolutionMs = 1): (() => number) | null {
  const proc = (globalThis as { process?: { cpuUsage?: () => { user: number; system: number } } }).process;
  const wall = (globalThis as { performance?: { now(): number } }).performance;
  if (typeof proc?.cpuUsage !== 'function' || wall === undefined) return null;
  let readAt = Number.NEGATIVE_INFINITY;
  let last = 0;
  return () => {
    const now = wall.now();
    if (now - readAt >= resolutionMs) {
      const { user, system } = proc.cpuUsage!();
      last = (user + system) / 1000;
      readAt = now;
    }
    return last;
  };
}

/** The engine's agenda: workers in (time, scheduling order), a FIFO lane beside a binary heap. */
// Hot path of the simulator: one push and one pop per event; bench/sim.mjs guards its speed.

/** What the agenda keeps on each worker: when it is due and when it was scheduled. */
export interface Scheduled {
  /** Virtual time (epoch ms) the worker is due. */
  at: number;
  /** Scheduling order: ties in time come out in the order they went in (determinism). */
  seq: number;
}

/** A min-queue of workers by (at, seq). A worker is in it at most once at a time. */
export interface WorkerAgenda<T extends Scheduled> {
  /** Schedules `item` at `at` (after every item already due at the same time). */
  push(at: number, item: T): void;
  /** The earliest item, or undefined when none is left. */
  pop(): T | undefined;
}

/** Past this many popped entries at its head, the lane is compacted (amortised O(1) a pop). */
const COMPACT_AT = 4096;

/**
 * An empty agenda. Most events of a run are scheduled at or after the latest one already
 * scheduled (a worker's next event is "now + latency", and latencies are often constant): those
 * go to a FIFO lane, in O(1), which stays sorted by (at, seq) because each item appended is due no
 * earlier than the lane's last and was scheduled after it. Anything due earlier goes to the heap.
 * `pop` takes the lesser of the two heads by (at, seq): the same order a single heap gives.
 * Worked example: push(30, a), push(30, b), push(10, c) -> lane [a, b], heap [c]; pops c, a, b.
 * @example
 * import { createWorkerAgenda } from './worker-agenda.js';
 * const agenda = createWorkerAgenda<{ at: number; seq: number; name: string }>();
 * agenda.push(30, { at: 0, seq: 0, name: 'a' });
 * agenda.push(10, { at: 0, seq: 0, name: 'b' });
 * agenda.pop()?.name; // 'b'
 */
export function createWorkerAgenda<T extends Scheduled>(): WorkerAgenda<T> {
  const lane: (T | undefined)[] = [];
  let head = 0;
  const heap: T[] = [];
  let sequence = 0;
  // (at, seq) order; seq is unique, so two items are never equal.
  const before = (a: T, b: T) => a.at < b.at || (a.at === b.at && a.seq < b.seq);

  const heapPush = (item: T) => {
    let i = heap.length;
    heap.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const above = heap[parent]!;
      if (!before(item, above)) break;
      heap[i] = above;
      i = parent;
    }
    heap[i] = item;
  };
  const heapPop = (): T => {
    const top = heap[0]!;
    const last = heap.pop()!;
    const n = heap.length;
    if (n === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && before(heap[right]!, heap[left]!) ? right : left;
      if (!before(heap[child]!, last)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
    return top;
  };

  return {
    push(at, item) {
      item.at = at;
      item.seq = sequence++;
      const tail = lane.length > head ? lane[lane.length - 1]! : undefined;
      if (tail === undefined || at >= tail.at) lane.push(item);
      else heapPush(item);
    },
    pop() {
      const first = head < lane.length ? lane[head]! : undefined;
      if (heap.length > 0 && (first === undefined || before(heap[0]!, first))) return heapPop();
      if (first === undefined) return undefined;
      lane[head++] = undefined;
      if (head === lane.length) {
        lane.length = 0;
        head = 0;
      } else if (head >= COMPACT_AT) {
        lane.splice(0, head);
        head = 0;
      }
      return first;
    },
  };
}

/** The simulator's agenda: events in time order, ties in the order they were scheduled (determinism). */

/** A binary min-heap keyed by (time, sequence). */
export interface EventQueue<T> {
  readonly size: number;
  push(at: number, item: T): void;
  /** The earliest event, or undefined when none is left. */
  pop(): { at: number; item: T } | undefined;
}

/**
 * A new, empty queue. Two events at the same time come out in the order they went in, so a run
 * depends on nothing but the scenario and its seed.
 * @example
 * import { createEventQueue } from './event-queue.js';
 * const queue = createEventQueue<string>();
 * queue.push(20, 'b');
 * queue.push(10, 'a');
 * queue.push(10, 'a2');
 * [queue.pop()?.item, queue.pop()?.item, queue.pop()?.item]; // ['a', 'a2', 'b']
 */
export function createEventQueue<T>(): EventQueue<T> {
  const times: number[] = [];
  const orders: number[] = [];
  const items: T[] = [];
  let sequence = 0;
  const less = (i: number, j: number) =>
    times[i]! < times[j]! || (times[i] === times[j] && orders[i]! < orders[j]!);
  const swap = (i: number, j: number) => {
    [times[i], times[j]] = [times[j]!, times[i]!];
    [orders[i], orders[j]] = [orders[j]!, orders[i]!];
    [items[i], items[j]] = [items[j]!, items[i]!];
  };
  return {
    get size() {
      return items.length;
    },
    push(at, item) {
      times.push(at);
      orders.push(sequence++);
      items.push(item);
      for (let i = items.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (!less(i, parent)) break;
        swap(i, parent);
        i = parent;
      }
    },
    pop() {
      if (items.length === 0) return undefined;
      const top = { at: times[0]!, item: items[0]! };
      const last = items.length - 1;
      swap(0, last);
      times.pop();
      orders.pop();
      items.pop();
      for (let i = 0; ; ) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < items.length && less(left, smallest)) smallest = left;
        if (right < items.length && less(right, smallest)) smallest = right;
        if (smallest === i) break;
        swap(i, smallest);
        i = smallest;
      }
      return top;
    },
  };
}

// Bytes allocated per operation: every byte the operation allocates, young or old, kept or
// collected, over a long run, divided by the operations. V8's sampling heap profiler counts them
// (one sample every 16 bytes on average, each scaled to an unbiased estimate), so no collection
// and no concurrent sweeping moves the figure.
//
// Why a mean over a long run: what a limiter allocates depends on where its windows stand (a log
// that grows, a window that rolls over). The earlier figure, the median of 101 chunks of 1,000
// operations measured by heap growth after a full GC, saw only part of that cycle and moved by
// ±15% between measurements of the same code (655 to 776 bytes for authorize + admit + complete).
import { Session } from 'node:inspector/promises';

const WARM = 20_000;
// With the bench's fake clock (10 ms per limiter call, two calls per request) 200,000 requests
// span more than an hour: every per-minute and per-hour window rolls over inside the run.
const OPS = 200_000;

function sampledBytes(node) {
  let total = node.selfSize;
  for (const child of node.children) total += sampledBytes(child);
  return total;
}

// Where each result goes: kept past the call, as a caller keeps a decision or a verdict. A result
// only compared (`result === undefined`) let V8 inline the operation and drop the allocation of
// the very object measured (a decision read 56 bytes, less than its own 112).
const kept = { result: undefined };

/** Bytes per call of `op(k)` for k cycling over `size` inputs (mean over 200,000 calls). */
export async function bytesPerOp(op, size, warm = WARM) {
  let k = 0;
  const run = (count) => {
    for (let j = 0; j < count; j++) {
      kept.result = op(k);
      if (++k === size) k = 0;
    }
  };
  run(warm); // optimised code, caches filled
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 16,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    run(OPS);
    const { profile } = await session.post('HeapProfiler.stopSampling');
    return Math.round(sampledBytes(profile.head) / OPS);
  } finally {
    session.disconnect();
  }
}

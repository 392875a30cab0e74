// Bytes allocated per operation: heap growth over short chunks that start right after a full GC,
// so no collection runs inside a chunk (a chunk allocates well under the young generation's size).
// The median over many chunks is the figure; a chunk that a collection did cut into reads low and
// falls outside the median.

const CHUNK = 1000;
const CHUNKS = 101;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

/** Bytes per call of `op(k)` for k cycling over `size` inputs; null without --expose-gc. */
export function bytesPerOp(op, size) {
  if (typeof globalThis.gc !== 'function') return null;
  let k = 0;
  let sink = 0;
  const run = (count) => {
    for (let j = 0; j < count; j++) {
      const result = op(k);
      sink += result === undefined ? 0 : 1;
      if (++k === size) k = 0;
    }
  };
  run(20 * CHUNK); // warm: optimised code, caches filled
  const perOp = [];
  for (let c = 0; c < CHUNKS; c++) {
    globalThis.gc();
    const before = process.memoryUsage().heapUsed;
    run(CHUNK);
    perOp.push((process.memoryUsage().heapUsed - before) / CHUNK);
  }
  if (sink < 0) console.log(sink);
  return Math.round(median(perOp));
}

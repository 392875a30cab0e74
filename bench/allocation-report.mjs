// Bytes allocated per operation (authorize, admit + complete, both), and the memory store's bytes
// per idle and per busy identity; printed after the in-process scenarios.
import { spawnSync } from 'node:child_process';

/** Bytes per operation of one measurement, in a fresh process (bench/allocation-child.mjs says why). */
function bytesInOwnProcess(which) {
  const child = spawnSync(
    process.execPath,
    [new URL('./allocation-child.mjs', import.meta.url).pathname, which],
    { encoding: 'utf8' },
  );
  if (child.status !== 0) throw new Error(`allocation-child ${which} failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop()).bytes;
}

export async function measureAllocations({ lib, wants, lastStack }) {
  const allocations = {};
  if (wants('policy')) allocations.authorize = bytesInOwnProcess('authorize');
  if (wants('limits') || wants('stack'))
    allocations['admit + complete'] = bytesInOwnProcess('admit+complete');
  if (lastStack !== null) allocations['authorize + admit + complete'] = bytesInOwnProcess('stack');
  console.log(
    `\n== allocations (bytes per operation: V8's sampling heap profiler, mean over 200,000 operations, each in a process of its own) ==`,
  );
  for (const [name, bytes] of Object.entries(allocations)) console.log(`${name.padEnd(32)} ${bytes}`);
  const target = 1130 / 2;
  const both = allocations['authorize + admit + complete'];
  if (both !== undefined)
    console.log(
      `authorize + admit + complete: ${both} B (target <= ${target}, half of 1,130: ${both <= target ? 'met' : 'MISSED'})`,
    );

  let memory = null;
  if (wants('limits')) {
    const limitsModule = await import('./limits.mjs');
    memory = await limitsModule.measureMemory(lib, 100_000);
    console.log(
      `memory store: ${memory.bytesPerIdentity} bytes per idle identity at ${memory.identities.toLocaleString('en-US')} identities ` +
        `(target <= 200: ${memory.bytesPerIdentity !== null && memory.bytesPerIdentity <= 200 ? 'met' : 'MISSED'})`,
    );
    const { memoryStoreBytes } = await import('./busy-identity.mjs');
    memory.busyBytesPerIdentity = (await memoryStoreBytes(lib)).busy;
    console.log(
      `memory store: ${memory.busyBytesPerIdentity} bytes for an identity busy at every ceiling at once`,
    );
  }
  return { allocations, memory };
}

// Bytes allocated per operation (authorize, admit + complete, both), and the memory store's bytes
// per idle and per busy identity; printed after the in-process scenarios.
import { bytesPerOp } from './allocations.mjs';
import { withFreshTokens } from './request-mix.mjs';

export async function measureAllocations({ lib, tables, items, wants, lastStack }) {
  const allocations = {};
  if (wants('policy')) {
    const fresh = withFreshTokens(items);
    const policy = lib.createPolicy(tables);
    allocations.authorize = await bytesPerOp((k) => {
      const item = fresh[k];
      return policy.authorize(item.request, item.token, item.context);
    }, items.length);
  }
  if (wants('limits') || wants('stack')) {
    let now = Date.UTC(2026, 0, 1);
    const limiter = lib.createLimiter({ store: lib.createMemoryStore(), clock: () => (now += 10) });
    const identities = items.map((item) => limiter.identify(item.token));
    allocations['admit + complete'] = await bytesPerOp((k) => {
      const verdict = limiter.admit({ identity: identities[k], method: items[k].method });
      if (verdict.ticket !== null) limiter.complete(verdict.ticket, { status: 200 });
      return verdict;
    }, items.length);
  }
  if (lastStack !== null)
    allocations['authorize + admit + complete'] = await bytesPerOp(lastStack.tollgateOne, items.length);
  console.log(
    `\n== allocations (bytes per operation: V8's sampling heap profiler, mean over 200,000 operations) ==`,
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

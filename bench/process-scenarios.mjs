// The scenarios that run other processes (real HTTP servers, the CLI, redis-server) or long
// simulations, after the in-process ones. Each prints its own figures and returns them.
import { printRatioSummary } from './bench-report.mjs';

/** Ratios a scenario reports per run (arrays), printed as min / median / max beside their targets. */
function printRunRatios(title, result) {
  if (result.ratioRuns === undefined) return undefined;
  return printRatioSummary(title, result.ratioRuns, result.targets ?? {});
}

export async function runHttpScenario() {
  const { runHttpBench } = await import('./http.mjs');
  const http = await runHttpBench({ seconds: 5, warmup: 1 });
  console.log('\n== http: autocannon on 127.0.0.1, 20 connections, 5 s per server (after 1 s of warm-up) ==');
  console.log(`${'server'.padEnd(28)} ${'requests/s'.padStart(10)} ${'server CPU µs/request'.padStart(22)}`);
  for (const [kind, r] of Object.entries(http.results))
    console.log(
      `${kind.padEnd(28)} ${r.requestsPerSecond.toLocaleString('en-US').padStart(10)} ${String(r.cpuMicrosPerRequest).padStart(22)}`,
    );
  http.summary = printRunRatios('http: server CPU per request, ratios (min / median / max)', http);
  if (http.summary === undefined) {
    for (const [name, value] of Object.entries(http.ratios)) console.log(`ratio ${name}: ${value}x`);
    for (const [name, met] of Object.entries(http.targets))
      console.log(`target ${name}: ${met ? 'met' : 'MISSED'}`);
  }
  return http;
}

export async function runCheckScenario() {
  const { runCheckBench } = await import('./check.mjs');
  const check = runCheckBench();
  console.log('\n== check: tollgate check ==');
  for (const [name, { value, target }] of Object.entries(check))
    console.log(`${name}: ${value} (target < ${target}: ${value < target ? 'met' : 'MISSED'})`);
  return check;
}

export async function runRedisScenario() {
  const { runRedisBench } = await import('./redis.mjs');
  const redis = await runRedisBench();
  console.log('\n== redis: local redis-server, 1 and 64 in flight ==');
  if (redis.skipped) {
    console.log(redis.skipped);
    return redis;
  }
  for (const [name, r] of Object.entries(redis.results))
    console.log(`${name.padEnd(62)} ${String(r[1]).padStart(8)}/s  ${String(r[64]).padStart(8)}/s`);
  redis.summary = printRunRatios('redis: ratios (min / median / max)', redis);
  if (redis.summary === undefined)
    for (const [name, value] of Object.entries(redis.ratios)) console.log(`ratio ${name}: ${value}x`);
  console.log(
    `round trips per admission (Redis calls per admission, 1 in flight): ${redis.roundTripsPerAdmission} (target 1: ${redis.roundTripsPerAdmission <= 1.01 ? 'met' : 'MISSED'}); Redis calls per admission at 64 in flight (the calls of one turn go as one batch call): ${redis.callsPerAdmissionAt64}`,
  );
  console.log(`bytes per identity in Redis (MEMORY USAGE, one request completed): ${redis.bytesPerIdentity}`);
  console.log(
    `bytes per idle identity in Redis over 100,000 (INFO used_memory): ${redis.idleBytesPerIdentity} (target <= 200: ${redis.idleBytesPerIdentity <= 200 ? 'met' : 'MISSED'}); busy at every ceiling at once: ${redis.busyBytesPerIdentity}`,
  );
  return redis;
}

export async function runSimScenario() {
  const { runSimBench } = await import('./sim.mjs');
  const sim = runSimBench();
  console.log('\n== sim: tollgate simulate ==');
  console.log(
    `simulated requests per second of wall time (median of 3 runs of ${sim.requestsPerRun.toLocaleString('en-US')}): ${sim.requestsPerSecond.toLocaleString('en-US')} (target >= 2,000,000: ${sim.requestsPerSecond >= 2_000_000 ? 'met' : 'MISSED'})`,
  );
  console.log(
    `100 callers (greedy, polite, octokit; 10 virtual minutes, ${sim.hundredCallers.requests.toLocaleString('en-US')} requests): ${sim.hundredCallers.requestsPerSecond.toLocaleString('en-US')} simulated requests per second`,
  );
  const year = sim.oneYearHundredSparse;
  console.log(
    `one virtual year of 100 sparse callers (${year.requests.toLocaleString('en-US')} requests, ${year.seconds} s): peak RSS ${year.peakRssMb} MB, heap growth ${year.peakHeapGrowthMb} MB (target < 300 MB: ${year.peakRssMb < 300 ? 'met' : 'MISSED'})`,
  );
  return sim;
}

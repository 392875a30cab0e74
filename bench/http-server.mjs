// One server for the HTTP bench, in its own process so its CPU time is its own:
// `node bench/http-server.mjs <kind>` prints `port <n>`, then answers `cpu` on stdin with its CPU ms
// (and `exit` by ending normally, so `node --cpu-prof` writes its profile). The servers are in
// bench/http-servers.mjs.
import { benchServer } from './http-servers.mjs';

const port = await (await benchServer(process.argv[2])).listen();
const cpu0 = process.cpuUsage();
console.log(`port ${port}`);
process.stdin.setEncoding('utf8');
process.stdin.on('data', (line) => {
  // `exit` ends the process normally, so `node --cpu-prof` writes its profile.
  if (line.trim() === 'exit') process.exit(0);
  if (line.trim() !== 'cpu') return;
  const { user, system } = process.cpuUsage(cpu0);
  console.log(`cpu ${(user + system) / 1000}`);
});

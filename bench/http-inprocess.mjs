// A bench server driven in-process over fake sockets: node's HTTP parser and writer, the framework
// and the gate, without the kernel's loopback or a load generator competing for the CPU. Steadier
// than autocannon on a shared machine, so A/B changes of the adapters show; not the figure
// (bench/http.mjs measures real servers). `node bench/http-inprocess.mjs <kind> [rounds] [requests]`
// prints `{ kind, min, median }`, CPU µs per request over the rounds (BENCH_TREE=<checkout> runs
// another build's bench/http-servers.mjs). 20 connections, each sending its next request a turn
// after its answer, as over a network.
import { Duplex } from 'node:stream';

const [kind, rounds = '10', perRound = '10000'] = process.argv.slice(2);
const tree = process.env.BENCH_TREE ?? new URL('..', import.meta.url).pathname;
const { benchServer } = await import(`${tree}/bench/http-servers.mjs`);
const { server } = await benchServer(kind);
const PATHS = ['app', 'api', 'docs', 'site'].map((repo) => `/repos/acme/${repo}/issues/events`);
const raw = Array.from({ length: 100 }, (_, i) =>
  Buffer.from(`GET ${PATHS[i % 4]} HTTP/1.1\r\nHost: 127.0.0.1\r\nauthorization: Bearer bench-${i}\r\n\r\n`),
);
let sent = 0;
let answered = 0;
let target = 0;
let refused = 0;
let finished = () => {};

class FakeSocket extends Duplex {
  constructor(id) {
    super();
    this.buffered = '';
    this.remoteAddress = '127.0.0.1';
    this.remotePort = 40000 + id;
  }
  _read() {}
  _write(chunk, _encoding, callback) {
    this.buffered += chunk.toString('latin1');
    this.scan();
    callback();
  }
  setTimeout() {
    return this;
  }
  setNoDelay() {
    return this;
  }
  setKeepAlive() {
    return this;
  }
  // Whole responses: Content-Length bodies or chunked ones (bodies are small ASCII JSON).
  scan() {
    for (;;) {
      const end = this.buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = this.buffered.slice(0, end);
      const length = /content-length: (\d+)/i.exec(head);
      let total = end + 4 + Number(length?.[1] ?? 0);
      if (length === null) {
        const last = this.buffered.indexOf('\r\n0\r\n\r\n', end);
        if (last < 0) return;
        total = last + 7;
      }
      if (this.buffered.length < total) return;
      if (!head.startsWith('HTTP/1.1 200')) refused++;
      this.buffered = this.buffered.slice(total);
      answered++;
      setImmediate(() => this.next());
    }
  }
  next() {
    if (sent < target) this.push(raw[sent++ % raw.length]);
    else if (answered >= target) finished();
  }
}

const sockets = Array.from({ length: 20 }, (_, i) => {
  const socket = new FakeSocket(i);
  server.emit('connection', socket);
  return socket;
});
async function batch(n) {
  target += n;
  const done = new Promise((resolve) => {
    finished = resolve;
  });
  for (const socket of sockets) socket.next();
  await done;
}

await batch(Number(perRound)); // warm-up
const figures = [];
for (let round = 0; round < Number(rounds); round++) {
  const before = process.cpuUsage();
  await batch(Number(perRound));
  const { user, system } = process.cpuUsage(before);
  figures.push((user + system) / Number(perRound));
}
figures.sort((a, b) => a - b);
if (refused > 0) throw new Error(`${kind}: ${refused} answers were not 200`);
console.log(
  JSON.stringify({ kind, min: +figures[0].toFixed(2), median: +figures[figures.length >> 1].toFixed(2) }),
);
process.exit(0);

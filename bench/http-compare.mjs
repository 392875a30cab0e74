// Server CPU per request of two builds of tollgate side by side, interleaved round by round so a
// machine's changing load falls on both alike: `node bench/http-compare.mjs <other-tree> [this-tree]`
// where each tree is a checkout with `dist/` built (for example a `git worktree` of an older commit).
// Each server runs `bench/http-server.mjs` of its own tree in its own process under the same load
// as `npm run bench`'s http scenario; prints the median of ROUNDS (default 5) per server kind.
// The servers take BENCH_WINDOW_MODES from this process: unset, each build runs its own defaults; =bucket runs
// the windowed rules as token buckets in a build that knows window modes (an older build ignores it).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const [otherTree, thisTree = fileURLToPath(new URL('..', import.meta.url))] = process.argv.slice(2);
if (otherTree === undefined) {
  console.error('usage: node bench/http-compare.mjs <other-tree> [this-tree]');
  process.exit(2);
}
const trees = { base: resolve(otherTree), head: resolve(thisTree) };
const kinds = (process.env.KINDS ?? 'node,node+tollgate,fastify,fastify+tollgate').split(',');
const rounds = Number(process.env.ROUNDS ?? 5);
const seconds = Number(process.env.SECONDS ?? 5);
const PATHS = ['app', 'api', 'docs', 'site'].map((repo) => `/repos/acme/${repo}/issues/events`);
const requests = Array.from({ length: 100 }, (_, i) => ({
  method: 'GET',
  path: PATHS[i % PATHS.length],
  headers: { authorization: `Bearer bench-${i}` },
}));

async function measure(tree, kind) {
  const child = spawn(process.execPath, [`${tree}/bench/http-server.mjs`, kind], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env },
  });
  child.stdout.setEncoding('utf8');
  const lines = [];
  let wake = () => {};
  child.stdout.on('data', (chunk) => {
    lines.push(...chunk.split('\n').filter(Boolean));
    wake();
  });
  const next = async (prefix) => {
    for (;;) {
      const found = lines.findIndex((line) => line.startsWith(prefix));
      if (found >= 0) return lines.splice(found, 1)[0].slice(prefix.length + 1);
      await new Promise((woken) => {
        wake = woken;
      });
    }
  };
  const url = `http://127.0.0.1:${Number(await next('port'))}`;
  await autocannon({ url, connections: 20, duration: 1, requests });
  child.stdin.write('cpu\n');
  const before = Number(await next('cpu'));
  const run = await autocannon({ url, connections: 20, duration: seconds, requests });
  child.stdin.write('cpu\n');
  const after = Number(await next('cpu'));
  child.kill();
  await once(child, 'exit');
  if (run.non2xx > 0) throw new Error(`${tree} ${kind}: ${run.non2xx} answers were not 2xx`);
  return ((after - before) * 1000) / run.requests.total;
}

const figures = { base: {}, head: {} };
for (let round = 0; round < rounds; round++)
  for (const kind of kinds)
    for (const side of round % 2 === 0 ? ['base', 'head'] : ['head', 'base']) {
      const micros = await measure(trees[side], kind);
      figures[side][kind] = [...(figures[side][kind] ?? []), micros];
      console.log(`round ${round + 1} ${side} ${kind}: ${micros.toFixed(1)} µs/request`);
    }
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`\nserver CPU per request, median of ${rounds} (base ${trees.base}, head ${trees.head}):`);
for (const kind of kinds) {
  const base = median(figures.base[kind]);
  const head = median(figures.head[kind]);
  console.log(
    `${kind.padEnd(18)} base ${base.toFixed(1)} µs  head ${head.toFixed(1)} µs  head/base ${(head / base).toFixed(3)}`,
  );
}

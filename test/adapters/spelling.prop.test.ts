// Issue 18, item 1: no request reaches a handler that the gate would refuse under another
// spelling. Every table endpoint is registered in each router's own syntax behind the gate, on
// real servers (Express 5 and 4, default and strict/case-sensitive; Fastify 5, default and
// loose; Hono, default and `strict: false`; node:http; and four of them under `/api`). Requests
// spell the endpoints' paths as routers may read them (letter case of static segments, a
// trailing slash, repeated slashes, a percent-encoded letter, a character case folding reads as
// `k` or `s`, a `.git` suffix, the prefix in any of these), anonymously or with a token that holds no permission, with the gate in deny and in
// pass-through mode. A handler may run only for a request the gate allowed as that very
// endpoint; and the gate never passes a spelling of a table endpoint on as unknown.
// The probe gates carry a hostile `skip` that would keep every odd spelling away: it must not.
import { Agent, request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shippedTables } from '../../src/index.js';
import { fcRuns } from '../setup.js';
import { fixedSpelling, spell, spellingArbitrary, type TableRoute, tableRoute } from './spelling-routes.js';
import { type ProbeServer, SETUPS, type ServerSetup, startProbeServer } from './spelling-servers.js';

const ROUTES: readonly TableRoute[] = shippedTables().endpoints.map((entry) => tableRoute(entry.key));

type Mode = 'deny' | 'pass';
// Anonymous, a token without permissions (the gate refuses nearly all), and one with every
// permission (the gate allows most, so the handlers run and are checked against its decision).
const EVERY_PERMISSION = [
  'actions',
  'administration',
  'contents',
  'issues',
  'environments',
  'variables',
  'pull_requests',
  'organization_administration',
  'organization_assistant_business',
  'organization_members',
  'organization_self_hosted_runners',
  'organization_team_discussions',
  'organization_variables',
]
  .map((slug) => `${slug}=write`)
  .concat('metadata=read')
  .join(',');
const CALLERS = [undefined, 'fine-grained:nobody:', `fine-grained:admin:${EVERY_PERMISSION}`] as const;

const agent = new Agent({ keepAlive: true, maxSockets: 8 });
let nextId = 0;

/** Sends one request with its path exactly as spelled (no client normalizes it); resolves with its id. */
function send(server: ProbeServer, method: string, path: string, mode: Mode, secret: string | undefined) {
  const id = String(++nextId);
  const headers: Record<string, string> = { 'x-probe-id': id, 'x-probe-mode': mode };
  if (secret !== undefined) headers.authorization = `Bearer ${secret}`;
  if (method !== 'GET' && method !== 'DELETE') headers['content-type'] = 'application/json';
  return new Promise<{ id: string; status: number }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, method, path, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ id, status: res.statusCode! }));
    });
    req.on('error', reject);
    req.end(method === 'GET' || method === 'DELETE' ? undefined : '{}');
  });
}

interface Sent {
  readonly server: ProbeServer;
  readonly route: TableRoute;
  readonly path: string;
  readonly mode: Mode;
  readonly id: string;
}

/** What went wrong with one request, or null: a handler without the gate's allowance, or a pass-through. */
function violation({ server, route, path, mode, id }: Sent): string | null {
  const seen = server.probe.gate.get(id);
  const ran = server.probe.ran.get(id);
  const where = `${server.name}, ${mode}: ${route.method} ${path} (${route.key})`;
  if (seen === undefined)
    return ran === undefined ? null : `${where}: handler ${ran} ran, the gate never saw it`;
  if (seen.reason === 'pass_through' || seen.reason === 'unknown_endpoint' || seen.reason === 'skipped')
    return `${where}: the gate took it for no endpoint (${seen.reason})`;
  if (ran === undefined) return null;
  if (seen.action !== 'pass') return `${where}: handler ${ran} ran after the gate answered ${seen.reason}`;
  if (seen.endpoint !== ran) return `${where}: handler ${ran} ran, the gate allowed ${seen.endpoint}`;
  return null;
}

// `width` requests in flight at any time, each worker taking the next item as one ends.
async function inPool<T, R>(items: readonly T[], width: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await run(items[at]!);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

describe('no spelling of a table endpoint reaches a handler without the gate allowing that endpoint', () => {
  let servers: ProbeServer[] = [];
  const stats = { requests: 0, handlerRuns: 0, reasons: new Map<string, number>() };
  beforeAll(async () => {
    servers = await Promise.all(SETUPS.map((setup) => startProbeServer(setup, ROUTES)));
  }, 60_000);
  afterAll(async () => {
    agent.destroy();
    await Promise.all(servers.map((server) => server.close()));
    const reasons = [...stats.reasons].map(([reason, count]) => `${reason} ${count}`).join(', ');
    console.log(
      `spelling property: ${stats.requests} requests, ${stats.handlerRuns} handler runs; gate: ${reasons}`,
    );
  });

  const check = (sent: Sent[]): string[] => {
    stats.requests += sent.length;
    const problems: string[] = [];
    for (const one of sent) {
      const seen = one.server.probe.gate.get(one.id);
      if (seen !== undefined) stats.reasons.set(seen.reason, (stats.reasons.get(seen.reason) ?? 0) + 1);
      if (one.server.probe.ran.has(one.id)) stats.handlerRuns++;
      const problem = violation(one);
      if (problem !== null) problems.push(problem);
    }
    return problems;
  };

  // The servers really run in the settings they are named after: the same odd spelling reaches
  // the handler (allowed by the gate as that endpoint) exactly on the routers that read it so.
  it('reaches handlers under odd spellings exactly where the router settings say', async () => {
    const route = tableRoute('GET /repos/{owner}/{repo}/issues/{issue_number}/events');
    const admin = CALLERS[2];
    const reached = async (prefix: string, path: string) => {
      const names: string[] = [];
      for (const server of servers) {
        const full = (server.prefix === '' ? '' : prefix) + path;
        const { id } = await send(server, 'GET', full, 'pass', admin);
        expect(violation({ server, route, path: full, mode: 'pass', id })).toBeNull();
        if (server.probe.ran.get(id) === route.key) names.push(server.name);
      }
      return names;
    };
    const named = (setups: readonly ServerSetup[]) => setups.map((setup) => setup.name);
    expect(await reached('/API', '/REPOS/acme/app/Issues/42/EVENTS')).toEqual(
      named(SETUPS.filter((setup) => setup.reads.letterCase)),
    );
    expect(await reached('/api', '/repos/acme/app/issues/42/events/')).toEqual(
      named(SETUPS.filter((setup) => setup.reads.trailingSlash)),
    );
    // Fastify with `caseSensitive: false` runs the `keys` route for `%E2%84%AAeys` (U+212A KELVIN
    // SIGN lower-cases to `k`); the gate refuses that spelling everywhere, so no handler runs.
    const keys = tableRoute('GET /repos/{owner}/{repo}/keys');
    for (const server of servers) {
      const path = `${server.prefix}/repos/acme/app/%E2%84%AAeys`;
      const { id, status } = await send(server, 'GET', path, 'pass', admin);
      expect(violation({ server, route: keys, path, mode: 'pass', id })).toBeNull();
      expect([server.name, status, server.probe.ran.has(id)]).toEqual([server.name, 400, false]);
    }
    // Fastify by default reads `issues/events/` as `issues/events/{event_id}` with an empty id,
    // the others as `issues/events`: the gate refuses it everywhere, so no handler runs.
    const events = tableRoute('GET /repos/{owner}/{repo}/issues/events');
    for (const server of servers) {
      const path = `${server.prefix}/repos/acme/app/issues/events/`;
      const { id, status } = await send(server, 'GET', path, 'pass', admin);
      expect(violation({ server, route: events, path, mode: 'pass', id })).toBeNull();
      expect([server.name, status, server.probe.ran.has(id)]).toEqual([server.name, 400, false]);
    }
  });

  it('holds for every endpoint, one spelling each, on every server', async () => {
    const jobs = servers.flatMap((server) =>
      ROUTES.map((route, i) => ({
        server,
        route,
        path: spell(route, fixedSpelling(i), server.prefix),
        mode: (Math.floor(i / 6) % 2 === 0 ? 'pass' : 'deny') as Mode,
        secret: CALLERS[Math.floor(i / 12) % CALLERS.length],
      })),
    );
    const sent = await inPool(jobs, 32, async (job) => ({
      ...job,
      id: (await send(job.server, job.route.method, job.path, job.mode, job.secret)).id,
    }));
    expect(check(sent).slice(0, 10)).toEqual([]);
    // The run decided spellings as endpoints (it is not vacuous): most answers name one.
    const decided = sent.filter((one) => one.server.probe.gate.get(one.id)?.endpoint != null).length;
    expect(decided).toBeGreaterThan(sent.length / 2);
  }, 120_000);

  it('holds for generated spellings, modes and callers on every server', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(ROUTES.length - 1),
        spellingArbitrary,
        fc.constantFrom<Mode>('deny', 'pass'),
        fc.constantFrom(...CALLERS),
        async (index, spelling, mode, secret) => {
          const route = ROUTES[index]!;
          const sent = await Promise.all(
            servers.map(async (server) => {
              const path = spell(route, spelling, server.prefix);
              const { id } = await send(server, route.method, path, mode, secret);
              return { server, route, path, mode, id };
            }),
          );
          expect(check(sent)).toEqual([]);
        },
      ),
      { numRuns: Math.min(fcRuns, 150) },
    );
  }, 120_000);
});

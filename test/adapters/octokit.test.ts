// A real client against the demo server: @octokit/core with the throttling and retry plugins, as
// integrations use it, and limits with windows of two seconds so the waits stay short.
import { Octokit } from '@octokit/core';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoServer, startDemoServer } from '../../examples/demo-server.js';
import { defaultLimits } from '../../src/limits/default-limits.js';
import type { LimitsConfig } from '../../src/limits/limits-config.js';

const shipped = defaultLimits();
/** Users: 3 requests per 2 s; REST points: 5 per 2 s. */
const quickLimits: LimitsConfig = {
  ...shipped,
  primary: {
    ...shipped.primary,
    windowMs: 2_000,
    callers: { ...shipped.primary.callers, user: { ...shipped.primary.callers.user, limit: 3 } },
  },
  secondary: { ...shipped.secondary, points: { ...shipped.secondary.points, windowMs: 2_000, rest: 5 } },
};

const Client = Octokit.plugin(throttling, retry);
type Limited = { kind: 'primary' | 'secondary'; retryAfter: number; at: number };

function client(server: DemoServer, secret: string, limited: Limited[]) {
  return new Client({
    baseUrl: server.url,
    auth: secret,
    retry: { retries: 0 },
    throttle: {
      onRateLimit: (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number) => {
        limited.push({ kind: 'primary', retryAfter, at: Date.now() });
        return retryCount < 1;
      },
      onSecondaryRateLimit: (
        retryAfter: number,
        _options: unknown,
        _octokit: unknown,
        retryCount: number,
      ) => {
        limited.push({ kind: 'secondary', retryAfter, at: Date.now() });
        return retryCount < 1;
      },
    },
  });
}

describe('Octokit with its throttling and retry plugins, against the demo server', () => {
  let server: DemoServer;
  beforeAll(async () => {
    server = await startDemoServer({ limits: quickLimits });
  });
  afterAll(() => server.close());

  it('on primary exhaustion calls onRateLimit, and its next request reaches the server only after x-ratelimit-reset', async () => {
    const limited: Limited[] = [];
    const octokit = client(server, 'demo-issues-reader', limited);
    const route = 'GET /repos/{owner}/{repo}/issues/events';
    let reset = 0;
    for (let i = 0; i < 3; i++) {
      const response = await octokit.request(route, { owner: 'acme', repo: 'app' });
      reset = Number(response.headers['x-ratelimit-reset']);
    }
    const before = server.requests.length;
    const fourth = await octokit.request(route, { owner: 'acme', repo: 'app' });
    expect(fourth.status).toBe(200);
    expect(limited).toHaveLength(1);
    expect(limited[0]!.kind).toBe('primary');
    // Two requests reached the server: the refused one, then the retry, not before the reset.
    const [refused, retried] = server.requests.slice(before);
    expect(refused).toBeDefined();
    expect(retried).toBeDefined();
    expect(retried!.at).toBeGreaterThanOrEqual(reset * 1000);
    expect(server.requests.length - before).toBe(2);
  });

  it('on a secondary limit calls onSecondaryRateLimit with the retry-after value, and waits it', async () => {
    const limited: Limited[] = [];
    const octokit = client(server, 'demo-installation', limited);
    const route = 'GET /repos/{owner}/{repo}/issues/events';
    for (let i = 0; i < 5; i++) await octokit.request(route, { owner: 'acme', repo: 'app' });
    const before = server.requests.length;
    const sixth = await octokit.request(route, { owner: 'acme', repo: 'app' });
    expect(sixth.status).toBe(200);
    expect(limited.map((l) => l.kind)).toEqual(['secondary']);
    expect(limited[0]!.retryAfter).toBeGreaterThanOrEqual(1);
    expect(limited[0]!.retryAfter).toBeLessThanOrEqual(2);
    const [refused, retried] = server.requests.slice(before);
    expect(retried!.at - refused!.at).toBeGreaterThanOrEqual(limited[0]!.retryAfter * 1000 - 50);
  });

  it('gets a permission refusal as a RequestError 403 whose headers name what is missing', async () => {
    const octokit = client(server, 'demo-issues-reader', []);
    const refused = await octokit
      .request('GET /repos/{owner}/{repo}/actions/variables', { owner: 'acme', repo: 'app' })
      .then(
        () => null,
        (error: {
          name: string;
          status: number;
          response: { headers: Record<string, string>; data: { message: string } };
        }) => error,
      );
    expect(refused?.name).toBe('HttpError');
    expect(refused?.status).toBe(403);
    expect(refused?.response.headers['x-accepted-service-permissions']).toBe('variables=read');
    expect(refused?.response.data.message).toMatch(/needs permission `variables=read`/);
  });
});

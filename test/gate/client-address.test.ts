// Who an anonymous caller is, through real servers (issue 18, item 6): the address the trusted
// proxy wrote (X-Forwarded-For, Forwarded, X-Real-IP), one spelling per address, IPv6 by /56,
// and Fastify's own trustProxy honoured.
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { tollgatePlugin } from '../../src/adapters/fastify.js';
import { createGate, type GateOptions } from '../../src/gate/create-gate.js';
import { clientAddress } from '../../src/gate/resolve-token.js';
import { SERVER_KINDS, startServer } from '../adapters/servers.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** `x-ratelimit-used` of one anonymous request for a public repository. */
async function used(url: string, headers: Record<string, string>): Promise<number> {
  const response = await fetch(`${url}/repos/octo/app/issues/events`, { headers });
  await response.arrayBuffer();
  return Number(response.headers.get('x-ratelimit-used'));
}

const gateOf = (options: Partial<GateOptions>) =>
  createGate({ lookupToken: () => null, resolveContext: () => ({ visibility: 'public' }), ...options });

describe.each(SERVER_KINDS)('the anonymous caller behind a proxy, on %s', (kind) => {
  it('Forwarded (RFC 7239): every spelling of one /56 network is one caller, quoted, bracketed or with a port', async () => {
    const server = await startServer(kind, gateOf({ trustProxy: 1, proxyHeader: 'forwarded' }));
    closers.push(() => server.close());
    const spellings = [
      'for="[2001:db8::1]:4711"',
      'for="[2001:DB8:0::1]"',
      'For="[2001:db8::2]";proto=https',
      // The client's own claim first, the proxy's entry last: only the last counts.
      'for=198.51.100.7, for="[2001:db8:0:ff::9]:80"',
    ];
    const counts = [];
    for (const forwarded of spellings) counts.push(await used(server.url, { forwarded }));
    expect(counts).toEqual([1, 2, 3, 4]);
    expect(await used(server.url, { forwarded: 'for="[2001:db8:0:100::1]"' })).toBe(1);
    expect(await used(server.url, { forwarded: 'for=192.0.2.43:47011' })).toBe(1);
    expect(await used(server.url, { forwarded: 'for="[::ffff:192.0.2.43]"' })).toBe(2);
    // Obfuscated and unknown nodes are one caller, `unknown`: they cannot mint budgets.
    expect(await used(server.url, { forwarded: 'for=_hidden' })).toBe(1);
    expect(await used(server.url, { forwarded: 'for=unknown' })).toBe(2);
    expect(await used(server.url, { forwarded: 'for="_other"' })).toBe(3);
  });

  it('X-Real-IP: the address the proxy next to the server saw; X-Forwarded-For ignored then', async () => {
    const server = await startServer(kind, gateOf({ trustProxy: true, proxyHeader: 'x-real-ip' }));
    closers.push(() => server.close());
    expect(await used(server.url, { 'x-real-ip': '203.0.113.9' })).toBe(1);
    expect(await used(server.url, { 'x-real-ip': '203.0.113.9', 'x-forwarded-for': '198.51.100.1' })).toBe(2);
    expect(await used(server.url, { 'x-real-ip': '203.0.113.10' })).toBe(1);
  });

  it('X-Forwarded-For (the default header): a forged Forwarded header changes nothing', async () => {
    const server = await startServer(kind, gateOf({ trustProxy: 1 }));
    closers.push(() => server.close());
    expect(await used(server.url, { 'x-forwarded-for': '2001:db8::1' })).toBe(1);
    expect(await used(server.url, { 'x-forwarded-for': '2001:db8::2', forwarded: 'for=198.51.100.1' })).toBe(
      2,
    );
  });
});

describe("Fastify's own trustProxy", () => {
  async function fastifyServer(trustProxy: boolean): Promise<string> {
    const app = Fastify({ trustProxy });
    await app.register(tollgatePlugin, gateOf({}));
    app.get('/*', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => app.close());
    return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  }

  it('is honoured when set there: the client of request.ip is the caller', async () => {
    const url = await fastifyServer(true);
    expect(await used(url, { 'x-forwarded-for': '203.0.113.50' })).toBe(1);
    expect(await used(url, { 'x-forwarded-for': '203.0.113.50' })).toBe(2);
    expect(await used(url, { 'x-forwarded-for': '203.0.113.51' })).toBe(1);
  });

  it('leaves the socket address when Fastify does not trust proxies', async () => {
    const url = await fastifyServer(false);
    expect(await used(url, { 'x-forwarded-for': '203.0.113.50' })).toBe(1);
    expect(await used(url, { 'x-forwarded-for': '203.0.113.51' })).toBe(2);
  });
});

describe('clientAddress', () => {
  const facts = (value: string) => ({
    method: 'GET',
    target: '/',
    remoteAddress: '10.0.0.2',
    header: () => value,
  });
  it('takes the hops-th entry from the right of Forwarded, the socket when there is none', () => {
    const header = 'for=192.0.2.60;proto=http;by=203.0.113.43, for="[2001:db8:cafe::17]:4711", for=10.1.1.1';
    expect(clientAddress(facts(header), 1, 'forwarded')).toBe('10.1.1.1');
    expect(clientAddress(facts(header), 2, 'forwarded')).toBe('2001:db8:cafe::17');
    expect(clientAddress(facts(header), 3, 'forwarded')).toBe('192.0.2.60');
    expect(clientAddress(facts(header), 4, 'forwarded')).toBe('10.0.0.2');
    expect(clientAddress(facts('proto=https'), 1, 'forwarded')).toBe('10.0.0.2');
    expect(clientAddress(facts('for="a,b;c"'), 1, 'forwarded')).toBe('a,b;c');
  });

  it('refuses an unknown proxyHeader, naming the choices', () => {
    expect(() => gateOf({ proxyHeader: 'x-client-ip' as never })).toThrow(
      /`proxyHeader` must be one of `x-forwarded-for`, `forwarded`, `x-real-ip`, got `"x-client-ip"`/,
    );
  });
});

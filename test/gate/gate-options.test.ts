// createGate and the three adapters check their options when made, never at the first request.
import express from 'express';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { tollgatePlugin } from '../../src/adapters/fastify.js';
import { withTollgate } from '../../src/adapters/fetch.js';
import { tollgate } from '../../src/adapters/node.js';
import { createGate, type GateOptions } from '../../src/index.js';
import { thrown } from '../support/thrown.js';

const lookupToken = () => null;

describe('createGate options', () => {
  it.each([
    [{ resolveToken: 'x' }, 'createGate: `resolveToken` must be a function, got `"x"`'],
    [{ lookupToken, resolveContext: 1 }, 'createGate: `resolveContext` must be a function, got `1`'],
    [
      { lookupToken, trustProxy: -1 },
      'createGate: `trustProxy` must be true or false or an integer >= 0, got `-1`',
    ],
    [
      { lookupToken, unknownEndpoint: 'allow' },
      'createGate: `unknownEndpoint` must be one of `deny`, `pass-through`, got `"allow"`',
    ],
    [
      { lookupToken, standardHeaders: 'draft-6' },
      'createGate: `standardHeaders` must be one of false, `draft-7`, `draft-8`, got `"draft-6"`',
    ],
    [
      { lookupToken, corsPreflight: true },
      'createGate: `corsPreflight` must be one of `pass`, `gate`, got `true`',
    ],
    [
      { lookupToken, tokenPrefixes: { ghp_: 'clasic' } },
      'createGate: `tokenPrefixes.ghp_` must be one of `classic`, `fine-grained`, `app-user`, `app-installation`, `oauth-app`, `workflow`, `client-credentials`, `anonymous`, got `"clasic"`',
    ],
    [
      { lookupToken, documentationUrls: { rateLimit: 'https://x' } },
      'createGate: unknown option `documentationUrls.rateLimit` (did you mean `rateLimits`?); valid: authentication, permissions, rateLimits',
    ],
    [
      { lookupToken, limiter: {} },
      'createGate: `limiter` must be a limiter from createLimiter (an object with identify(), admit(), complete(), release(), status()), got an object',
    ],
    [
      { lookupTokn: lookupToken },
      'createGate: unknown option `lookupTokn` (did you mean `lookupToken`?); valid: policy, limiter, lookupToken, tokenPrefixes, trustProxy, proxyHeader, resolveToken, resolveContext, countDenied, unknownEndpoint, headerNames, load, clock, measureCpu, basePath, skip, onError, onDecision, standardHeaders, corsPreflight, documentationUrls (and 1 more: see details)',
    ],
    [{}, 'createGate: give `lookupToken` or `resolveToken`'],
    [null, 'createGate: options must be an object, got `null`'],
    [undefined, 'createGate: give `lookupToken` or `resolveToken`'],
  ])('refuses %o at once', (options, message) => {
    const error = thrown(() => createGate(options as GateOptions));
    expect(error.code).toBe('TOLLGATE_INVALID_OPTION');
    expect(error.message).toBe(message);
    expect(error.details[0]).toBe(message.replace(/ \(and \d+ more: see details\)$/, ''));
  });

  it('accepts every option name the gate documents, those of 0.2.0 included', () => {
    expect(() =>
      createGate({
        lookupToken,
        basePath: '/api',
        skip: () => false,
        onError: () => undefined,
        onDecision: () => undefined,
        standardHeaders: 'draft-8',
        corsPreflight: 'gate',
        documentationUrls: { authentication: 'https://a', permissions: 'https://p', rateLimits: 'https://r' },
        trustProxy: 1,
        countDenied: false,
        measureCpu: false,
      } as GateOptions),
    ).not.toThrow();
  });

  it('lists all problems of one call in details', () => {
    const error = thrown(() => createGate({ resolveToken: 'x', countDenied: 'no', clock: 5 } as never));
    expect(error.details).toEqual([
      'createGate: `resolveToken` must be a function, got `"x"`',
      'createGate: `countDenied` must be true or false, got `"no"`',
      'createGate: `clock` must be a function, got `5`',
    ]);
  });
});

describe('the adapters check their options when made', () => {
  it('node/Express middleware: tollgate(null) and a typo throw at once', () => {
    expect(thrown(() => tollgate(null as never)).message).toBe(
      'createGate: options must be an object, got `null`',
    );
    const app = express();
    expect(() => app.use(tollgate({ lookupToken, countDenid: false } as never))).toThrow(
      'createGate: unknown option `countDenid` (did you mean `countDenied`?)',
    );
  });

  it('Fastify plugin: register rejects with the option error; Fastify’s own register options are not the gate’s', async () => {
    const app = Fastify();
    await expect(
      app.register(tollgatePlugin, { lookupToken, unknownEndpoint: 'open' } as never),
    ).rejects.toMatchObject({
      code: 'TOLLGATE_INVALID_OPTION',
      message: 'createGate: `unknownEndpoint` must be one of `deny`, `pass-through`, got `"open"`',
    });
    await app.close();
    const prefixed = Fastify();
    await prefixed.register(tollgatePlugin, { lookupToken, prefix: '/api', logLevel: 'warn' } as GateOptions);
    await prefixed.ready();
    await prefixed.close();
  });

  it('fetch wrapper: bad gate options and a clientAddress that is not a function throw at once', () => {
    const handler = () => new Response('ok');
    expect(thrown(() => withTollgate(handler, null as never, { clientAddress: null })).message).toBe(
      'createGate: options must be an object, got `null`',
    );
    expect(
      thrown(() => withTollgate(handler, { lookupToken }, { clientAddress: 'x' } as never)).message,
    ).toMatch(/^withTollgate: give `clientAddress: \(request\) => address`.*; got a string$/);
  });
});

/** The default token resolver: the Authorization header, a user lookup, and the client address for anonymous callers. */
import { TollgateError } from '../core/errors.js';
import type { Token, TokenKind } from '../core/token.js';
import { forwardedAddresses, PROXY_HEADERS, type ProxyHeader } from './forwarded-for.js';
import { after, type MaybePromise } from './maybe-async.js';
import type { RequestFacts } from './request-facts.js';

/** What a lookup is told about the credentials of a request. */
export interface CredentialFacts {
  /** `bearer` (also `token <t>`) or `basic` (then `secret` is `id:secret`, decoded). */
  readonly scheme: 'bearer' | 'basic';
  /** The kind the secret's prefix names (option `tokenPrefixes`), if any. */
  readonly kind: TokenKind | undefined;
  readonly request: RequestFacts;
}

/** A user's lookup: the token a secret stands for, or null when it stands for none (401). */
export type LookupToken = (
  secret: string,
  facts: CredentialFacts,
) => Token | null | undefined | Promise<Token | null | undefined>;

export interface TokenResolverOptions {
  readonly lookupToken: LookupToken;
  /** Secret prefix to token kind, e.g. `{ 'tgp_': 'classic' }` (the seeds show none). */
  readonly tokenPrefixes?: Readonly<Record<string, TokenKind>>;
  /**
   * Proxies in front of the server whose `X-Forwarded-For` entries are trusted: 0 (default, the
   * socket's address is the client's) or the number of hops (`true` is 1). Behind one proxy, the
   * client is the last address it appended; anything to the left of it the client could forge.
   */
  readonly trustProxy?: boolean | number;
  /**
   * The header the trusted proxies write the client's address into: `x-forwarded-for` (default),
   * `forwarded` (RFC 7239 `for=`) or `x-real-ip` (one address: the nearest proxy's peer). Only
   * that header is read: a client can send the others, and the proxy passes them on unchanged.
   */
  readonly proxyHeader?: ProxyHeader;
}

/** Why the credentials of a request were refused: the gate answers 401. */
export const BAD_CREDENTIALS = 'bad_credentials' as const;

// `Bearer <t>`, `token <t>` (the older spelling clients still send) and `Basic <base64>`.
const AUTHORIZATION = /^(bearer|token|basic)[ \t]+(\S+)[ \t]*$/i;
// What AUTHORIZATION's secret must be when nothing follows it: tested, not executed (no match array).
const SECRET = /^\S+$/;

/**
 * The secret of `Bearer <t>` or `token <t>` in the spelling clients send (Octokit: `token <t>`),
 * or undefined for any other spelling, which AUTHORIZATION then reads. Same answer as the regular
 * expression for these headers, without its match array and capture strings (profile of the gate
 * under a load: the exec was a third of the resolver's time and 180 B of every request).
 */
function plainSecret(header: string): string | undefined {
  const at = header.startsWith('Bearer ') ? 7 : header.startsWith('token ') ? 6 : -1;
  if (at < 0) return undefined;
  const secret = header.slice(at);
  return SECRET.test(secret) ? secret : undefined;
}

/**
 * A lookup's answer as the gate takes it: no token is bad credentials. One function for every
 * request (an arrow written at the call would be a new closure each time).
 * @example
 * import { orBadCredentials } from './resolve-token.js';
 * orBadCredentials(null); // BAD_CREDENTIALS
 */
export const orBadCredentials = (token: Token | null | undefined): Token | typeof BAD_CREDENTIALS =>
  token ?? BAD_CREDENTIALS;

function decodeBasic(encoded: string): string | null {
  try {
    // atob gives one character per byte: decode those bytes as the UTF-8 they are.
    const text = new TextDecoder('utf-8', { fatal: true }).decode(
      Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)),
    );
    return text.includes(':') ? text : null;
  } catch {
    return null;
  }
}

/**
 * The client's address: the socket's, or behind `hops` trusted proxies the entry they appended to
 * `header` (the `hops`-th from the right). A missing or empty entry is the socket's address.
 * @example
 * import { clientAddress } from './resolve-token.js';
 * const facts = { method: 'GET', target: '/', remoteAddress: '10.0.0.2', header: () => '198.51.100.9, 203.0.113.7' };
 * clientAddress(facts, 1); // '203.0.113.7'
 * clientAddress(facts, 0); // '10.0.0.2'
 */
export function clientAddress(
  facts: RequestFacts,
  hops: number,
  header: ProxyHeader = 'x-forwarded-for',
): string {
  const socket = facts.remoteAddress ?? 'unknown';
  if (hops === 0) return socket;
  const forwarded = forwardedAddresses(header, facts.header(header) ?? '');
  const entry = header === 'x-real-ip' ? forwarded[0] : forwarded[forwarded.length - hops];
  return entry === undefined || entry === '' ? socket : entry;
}

/**
 * The default `resolveToken`: no Authorization header is an anonymous caller keyed by its address;
 * otherwise the user's `lookupToken` says which token the secret stands for. Answers
 * `BAD_CREDENTIALS` for a malformed header or a secret the lookup does not know.
 * @example
 * import { createTokenResolver } from './resolve-token.js';
 * const resolve = createTokenResolver({ lookupToken: (secret) => (secret === 's3cret' ? { kind: 'classic', scopes: ['repo'], user: 'octocat' } : null) });
 * const facts = { method: 'GET', target: '/', header: () => 'Bearer s3cret' };
 * resolve(facts); // { kind: 'classic', scopes: ['repo'], user: 'octocat' }
 */
export function createTokenResolver(
  options: TokenResolverOptions,
): (facts: RequestFacts) => MaybePromise<Token | typeof BAD_CREDENTIALS> {
  const { lookupToken, tokenPrefixes = {} } = options;
  if (typeof lookupToken !== 'function')
    throw new TollgateError(
      'TOLLGATE_INVALID_OPTION',
      'gate: `lookupToken` must be a function (secret) => Token | null',
    );
  const hops = options.trustProxy === true ? 1 : options.trustProxy === false ? 0 : (options.trustProxy ?? 0);
  if (!Number.isInteger(hops) || hops < 0)
    throw new TollgateError(
      'TOLLGATE_INVALID_OPTION',
      `gate: \`trustProxy\` must be true, false or a number of hops, got \`${String(options.trustProxy)}\``,
    );
  const proxyHeader = options.proxyHeader ?? 'x-forwarded-for';
  if (!PROXY_HEADERS.includes(proxyHeader))
    throw new TollgateError(
      'TOLLGATE_INVALID_OPTION',
      `gate: \`proxyHeader\` is \`${String(proxyHeader)}\`; valid: ${PROXY_HEADERS.join(', ')}`,
    );
  const prefixes = Object.entries(tokenPrefixes).sort(([a], [b]) => b.length - a.length);
  return (facts) => {
    const header = facts.header('authorization');
    if (header === undefined || header === '')
      return { kind: 'anonymous', ip: clientAddress(facts, hops, proxyHeader) };
    let scheme: CredentialFacts['scheme'] = 'bearer';
    let secret: string | null | undefined = plainSecret(header);
    if (secret === undefined) {
      const parts = AUTHORIZATION.exec(header);
      if (parts === null) return BAD_CREDENTIALS;
      scheme = parts[1]!.toLowerCase() === 'basic' ? 'basic' : 'bearer';
      secret = scheme === 'basic' ? decodeBasic(parts[2]!) : parts[2]!;
      if (secret === null) return BAD_CREDENTIALS;
    }
    // A plain loop: no closure per request.
    let kind: (typeof prefixes)[number][1] | undefined;
    for (let i = 0; i < prefixes.length; i++)
      if (secret.startsWith(prefixes[i]![0])) {
        kind = prefixes[i]![1];
        break;
      }
    return after(lookupToken(secret, { scheme, kind, request: facts }), orBadCredentials);
  };
}

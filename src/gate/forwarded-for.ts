/** The client addresses proxies wrote into a request: `X-Forwarded-For`, `Forwarded` (RFC 7239) or `X-Real-IP`. */

/** The header trusted proxies write the client's address into. */
export type ProxyHeader = 'x-forwarded-for' | 'forwarded' | 'x-real-ip';

/** The proxy headers, for messages that list the choices. */
export const PROXY_HEADERS: readonly ProxyHeader[] = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

/** Splits on `separator` outside quoted strings (RFC 7230 quoted-string, with `\` escapes). */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && quoted) i++;
    else if (c === '"') quoted = !quoted;
    else if (c === separator && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * The host of a `Forwarded` node (RFC 7239 section 6): `"[2001:db8::1]:4711"` -> `2001:db8::1`,
 * `192.0.2.43:47011` -> `192.0.2.43`; `unknown` and obfuscated names (`_hidden`) stay as they are.
 */
function nodeHost(value: string): string {
  let node = value.trim();
  if (node.startsWith('"') && node.endsWith('"') && node.length >= 2)
    node = node.slice(1, -1).replace(/\\(.)/g, '$1');
  if (node.startsWith('[')) {
    const end = node.indexOf(']');
    return end === -1 ? node : node.slice(1, end);
  }
  const colon = node.indexOf(':');
  // One colon: IPv4 (or a name) with a port. More: an unbracketed IPv6, which RFC 7239 forbids
  // but some proxies write; kept whole.
  return colon !== -1 && node.indexOf(':', colon + 1) === -1 ? node.slice(0, colon) : node;
}

/** The `for=` node of each element of a `Forwarded` header, oldest first ('' where an element has none). */
function forwardedFor(header: string): string[] {
  return splitOutsideQuotes(header, ',').map((element) => {
    for (const pair of splitOutsideQuotes(element, ';')) {
      const eq = pair.indexOf('=');
      if (eq !== -1 && pair.slice(0, eq).trim().toLowerCase() === 'for') return nodeHost(pair.slice(eq + 1));
    }
    return '';
  });
}

/**
 * The addresses a header lists, oldest (the client's claim) first, the nearest proxy's view last.
 * `X-Real-IP` holds one address: the one the proxy next to the server saw.
 * @example
 * import { forwardedAddresses } from './forwarded-for.js';
 * forwardedAddresses('forwarded', 'for=192.0.2.60;proto=http, for="[2001:db8::1]:4711"'); // ['192.0.2.60', '2001:db8::1']
 * forwardedAddresses('x-forwarded-for', '198.51.100.9, 203.0.113.7'); // ['198.51.100.9', '203.0.113.7']
 */
export function forwardedAddresses(header: ProxyHeader, value: string): string[] {
  if (header === 'forwarded') return forwardedFor(value);
  const entries = value.split(',').map((entry) => entry.trim());
  return header === 'x-real-ip' ? entries.slice(-1) : entries;
}

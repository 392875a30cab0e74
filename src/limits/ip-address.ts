/** One spelling per client address: IPv4 and IPv6 parsed by hand (no `node:net`: this folder runs anywhere). */

/** An address read from text: IPv4 as 4 bytes, IPv6 as 8 groups of 16 bits. */
type Parsed = { readonly v: 4; readonly bytes: number[] } | { readonly v: 6; readonly groups: number[] };

// Dotted decimal as `node:net` reads it: 0 to 255, no leading zero (`01.2.3.4` is not an address).
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)){3}$/;
const GROUP = /^[0-9a-fA-F]{1,4}$/;
const ZONE = /^[0-9a-zA-Z.:-]+$/;

function parseV4(text: string): number[] | null {
  return IPV4.test(text) ? text.split('.').map(Number) : null;
}

/** Groups of one side of `::` (or of the whole address); an IPv4 tail counts as two groups. */
function parseGroups(text: string, last: boolean): number[] | null {
  if (text === '') return [];
  const parts = text.split(':');
  const groups: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (last && i === parts.length - 1 && part.includes('.')) {
      const bytes = parseV4(part);
      if (bytes === null) return null;
      groups.push((bytes[0]! << 8) | bytes[1]!, (bytes[2]! << 8) | bytes[3]!);
    } else if (GROUP.test(part)) groups.push(Number.parseInt(part, 16));
    else return null;
  }
  return groups;
}

function parseV6(text: string): number[] | null {
  // A zone (`fe80::1%eth0`) names the interface, not the host: the address is the same caller.
  const zone = text.indexOf('%');
  const address = zone === -1 ? text : text.slice(0, zone);
  if (zone !== -1 && !ZONE.test(text.slice(zone + 1))) return null;
  const gap = address.indexOf('::');
  if (gap === -1) {
    const groups = parseGroups(address, true);
    return groups !== null && groups.length === 8 ? groups : null;
  }
  if (address.indexOf('::', gap + 1) !== -1) return null;
  const head = parseGroups(address.slice(0, gap), false);
  const tail = parseGroups(address.slice(gap + 2), true);
  // `::` stands for at least one zero group.
  if (head === null || tail === null || head.length + tail.length > 7) return null;
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

function parse(text: string): Parsed | null {
  if (text.length > 64) return null;
  const bytes = parseV4(text);
  if (bytes !== null) return { v: 4, bytes };
  const groups = text.includes(':') ? parseV6(text) : null;
  if (groups === null) return null;
  // IPv4-mapped (::ffff:a.b.c.d) is the IPv4 caller a dual-stack socket reports.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return { v: 4, bytes: [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255] };
  return { v: 6, groups };
}

/**
 * RFC 5952 text of eight groups: lower case, no leading zeros, the longest run of two or more zero
 * groups (the first of equal runs) as `::`. Worked example: 2001:DB8:0:0:0:0:0:1 -> 2001:db8::1.
 */
function formatV6(groups: readonly number[]): string {
  let bestAt = -1;
  let bestLength = 1;
  for (let at = 0; at < 8; ) {
    if (groups[at] !== 0) {
      at++;
      continue;
    }
    let end = at;
    while (end < 8 && groups[end] === 0) end++;
    if (end - at > bestLength) [bestAt, bestLength] = [at, end - at];
    at = end;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestAt === -1) return hex.join(':');
  return `${hex.slice(0, bestAt).join(':')}::${hex.slice(bestAt + bestLength).join(':')}`;
}

/**
 * The one spelling of an IP address (IPv4 dotted decimal; IPv6 per RFC 5952, IPv4-mapped IPv6 as
 * IPv4, a zone dropped), or null when the text is not an IP address.
 * @example
 * import { canonicalAddress } from './ip-address.js';
 * canonicalAddress('2001:DB8:0::1'); // '2001:db8::1'
 * canonicalAddress('::ffff:1.2.3.4'); // '1.2.3.4'
 * canonicalAddress('not-an-ip'); // null
 */
export function canonicalAddress(text: string): string | null {
  const parsed = parse(text);
  if (parsed === null) return null;
  return parsed.v === 4 ? parsed.bytes.join('.') : formatV6(parsed.groups);
}

/**
 * The caller an address is counted as: an IPv4 address itself, an IPv6 address by its network of
 * `ipv6Prefix` bits (`2001:db8::/56`; 128 keeps each address apart), and every text that is not
 * an IP address as the one caller `unknown` (so a garbled header cannot mint fresh budgets).
 * @example
 * import { addressIdentity } from './ip-address.js';
 * addressIdentity('2001:db8:0:ff:1::9', 56); // '2001:db8::/56'
 * addressIdentity('::ffff:203.0.113.7', 56); // '203.0.113.7'
 * addressIdentity('_hidden', 56); // 'unknown'
 */
export function addressIdentity(text: string, ipv6Prefix: number): string {
  const parsed = parse(text);
  if (parsed === null) return 'unknown';
  if (parsed.v === 4) return parsed.bytes.join('.');
  if (ipv6Prefix >= 128) return formatV6(parsed.groups);
  const masked = parsed.groups.map((group, i) => {
    const bits = Math.min(16, Math.max(0, ipv6Prefix - i * 16));
    return bits === 0 ? 0 : group & ((0xffff << (16 - bits)) & 0xffff);
  });
  return `${formatV6(masked)}/${ipv6Prefix}`;
}

// The hand-written address parser (src/limits has no node:*) held to node:net: the same texts are
// addresses, one spelling names one address, and the IPv6 groups are the networks BlockList sees.
import { BlockList, isIP, SocketAddress } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressIdentity, canonicalAddress } from '../../src/limits/ip-address.js';

const groups = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 });
/** Small values and zero runs are where spellings differ: bias toward them. */
const sparseGroups = fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), {
  minLength: 8,
  maxLength: 8,
});

/** One of the many spellings of eight groups: case, leading zeros, `::` anywhere it fits. */
const spelling = (words: number[]) =>
  fc
    .record({
      upper: fc.boolean(),
      pad: fc.boolean(),
      gapAt: fc.integer({ min: -1, max: 7 }),
      gapLength: fc.integer({ min: 1, max: 8 }),
    })
    .map(({ upper, pad, gapAt, gapLength }) => {
      const hex = words.map((w) => {
        const text = pad ? w.toString(16).padStart(4, '0') : w.toString(16);
        return upper ? text.toUpperCase() : text;
      });
      if (gapAt < 0) return hex.join(':');
      // `::` may stand for any run of zero groups (a run that is there).
      let end = gapAt;
      while (end < 8 && end - gapAt < gapLength && words[end] === 0) end++;
      if (end === gapAt) return hex.join(':');
      return `${hex.slice(0, gapAt).join(':')}::${hex.slice(end).join(':')}`;
    });

const mapped = (words: number[]) => words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff;
const compatible = (words: number[]) => words.slice(0, 6).every((w) => w === 0);

describe('canonicalAddress against node:net', () => {
  it('accepts exactly the texts isIP accepts', () => {
    const alphabet = fc.constantFrom(...'0123456789abcdefABCDEF:.%g'.split(''));
    const text = fc.oneof(
      fc.array(alphabet, { maxLength: 45 }).map((chars) => chars.join('')),
      sparseGroups.chain(spelling),
      sparseGroups.chain(spelling).map((t) => `${t}:1.2.3.4`),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(canonicalAddress(t) !== null, t).toBe(isIP(t) !== 0);
      }),
    );
  });

  it('gives every spelling of one IPv6 address the one RFC 5952 text SocketAddress prints', () => {
    fc.assert(
      fc.property(
        sparseGroups.chain((words) => fc.tuple(fc.constant(words), spelling(words), spelling(words))),
        ([words, a, b]) => {
          const canonical = canonicalAddress(a)!;
          expect(canonicalAddress(b)).toBe(canonical);
          expect(canonicalAddress(canonical)).toBe(canonical);
          if (mapped(words)) {
            // IPv4-mapped: the IPv4 caller a dual-stack socket reports.
            expect(canonical).toBe(
              `${words[6]! >> 8}.${words[6]! & 255}.${words[7]! >> 8}.${words[7]! & 255}`,
            );
            return;
          }
          const list = new BlockList();
          list.addAddress(canonical, 'ipv6');
          expect(list.check(a, 'ipv6')).toBe(true);
          // libuv prints `::a.b.c.d` for the deprecated IPv4-compatible form: compared by address above.
          if (!compatible(words))
            expect(canonical).toBe(new SocketAddress({ address: a, family: 'ipv6' }).address);
        },
      ),
    );
  });

  it('groups IPv6 callers exactly as BlockList subnets of the prefix do', () => {
    fc.assert(
      fc.property(groups, groups, fc.integer({ min: 1, max: 128 }), fc.boolean(), (x, y, prefix, near) => {
        // A second address in the first one's network (`near`), or anywhere.
        const a = x.map((w) => w.toString(16)).join(':');
        const b = (near ? x.map((w, i) => (i * 16 >= prefix ? y[i]! : w)) : y)
          .map((w) => w.toString(16))
          .join(':');
        for (const address of [a, b])
          if (mapped(address.split(':').map((w) => Number.parseInt(w, 16)))) return;
        const network = addressIdentity(a, prefix);
        const [base, bits] = prefix === 128 ? [network, '128'] : network.split('/');
        expect(Number(bits)).toBe(prefix);
        const subnet = new BlockList();
        subnet.addSubnet(base!, prefix, 'ipv6');
        expect(subnet.check(a, 'ipv6')).toBe(true);
        expect(addressIdentity(b, prefix) === network).toBe(subnet.check(b, 'ipv6'));
      }),
    );
  });
});

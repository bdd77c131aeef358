// Which addresses a webhook may be delivered to, by ipaddr.js's range classification rather than a
// hand-kept list: only global unicast, IPv4 and IPv6 alike. An IPv6 address that carries an IPv4 address
// (IPv4-mapped ::ffff:a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64
// 64:ff9b::a.b.c.d, 6to4 2002:aabb:ccdd::, Teredo 2001:0::) is judged by the IPv4 address it carries,
// so `[::ffff:0:7f00:1]` or `[2002:7f00:1::]` is loopback, not "unicast". Every other special range
// (site-local fec0::/10, unique-local, link-local, documentation, benchmarking, multicast, …) is refused.

import ipaddr from 'ipaddr.js';

export interface AddressClass {
  /** Whether the address is global unicast (after looking through an embedded IPv4 address). */
  global: boolean;
  /** ipaddr.js's range name, e.g. `unicast`, `loopback`, `6to4`; `ipv6_outside_2000::/3` for the rest. */
  range: string;
  /** The embedded IPv4 address the verdict was taken from, if any. */
  embedded?: string;
}

const v4 = (hi: number, lo: number) =>
  new ipaddr.IPv4([(hi >> 8) & 0xff, hi & 0xff, (lo >> 8) & 0xff, lo & 0xff]);

/** The IPv4 address an IPv6 address carries, when its range defines one. */
function embeddedV4(a: ipaddr.IPv6, range: string): ipaddr.IPv4 | undefined {
  const p = a.parts;
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return v4(p[6]!, p[7]!);
    case 'rfc6052':
      // Only the well-known NAT64 prefix 64:ff9b::/96 carries the address in its last 32 bits; the
      // local-use 64:ff9b:1::/48 is a private prefix and refused as such.
      return p[2] === 0 ? v4(p[6]!, p[7]!) : undefined;
    case '6to4':
      return v4(p[1]!, p[2]!);
    case 'teredo':
      // The client's address, bit-inverted, in the last 32 bits (RFC 4380 §4).
      return v4(p[6]! ^ 0xffff, p[7]! ^ 0xffff);
    default:
      // IPv4-compatible (deprecated): ::a.b.c.d, the first 96 bits zero (:: and ::1 are ranges of their own).
      if (range === 'unicast' && p.slice(0, 6).every((x) => x === 0)) return v4(p[6]!, p[7]!);
      return undefined;
  }
}

/** Classifies one textual address (IPv4 or IPv6, without brackets); throws on text that is not one. */
export function classifyAddress(text: string): AddressClass {
  const a = ipaddr.parse(text);
  if (a.kind() === 'ipv4') {
    const range = (a as ipaddr.IPv4).range();
    return { global: range === 'unicast', range };
  }
  const six = a as ipaddr.IPv6;
  const range = six.range();
  const inner = embeddedV4(six, range);
  if (inner !== undefined) {
    const innerRange = inner.range();
    return { global: innerRange === 'unicast', range: `${range}:${innerRange}`, embedded: inner.toString() };
  }
  if (range !== 'unicast') return { global: false, range };
  // Global unicast is 2000::/3; ipaddr.js calls everything it has no name for `unicast`.
  const global = (six.parts[0]! & 0xe000) === 0x2000;
  return { global, range: global ? 'unicast' : 'ipv6_outside_2000::/3' };
}

/** A CIDR, or a single address as a /32 or /128, for allow lists; undefined when `text` is neither. */
export function parseNet(text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | undefined {
  try {
    if (text.includes('/')) return ipaddr.parseCIDR(text);
    const a = ipaddr.parse(text);
    return [a, a.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return undefined;
  }
}

/** Whether `text` lies in `net`; an IPv4-mapped IPv6 address also matches as the IPv4 address it is. */
export function inNet(text: string, net: [ipaddr.IPv4 | ipaddr.IPv6, number]): boolean {
  let a = ipaddr.parse(text);
  if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress() && net[0].kind() === 'ipv4')
    a = (a as ipaddr.IPv6).toIPv4Address();
  return a.kind() === net[0].kind() && a.match(net);
}

// Address lists of IP addresses and CIDR ranges (IPv4 and IPv6), by ipaddr.js: checking a configured
// list and testing membership (gateway.trusted_proxies).

import ipaddr from 'ipaddr.js';

export type TrustCheck = (address: string) => boolean;

export function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  try {
    const a = ipaddr.parse(text.trim());
    // An IPv4-mapped IPv6 socket address (::ffff:a.b.c.d) is the IPv4 address.
    return a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress()
      ? (a as ipaddr.IPv6).toIPv4Address()
      : a;
  } catch {
    return undefined;
  }
}

/** Whether each entry of a trusted-proxy list is an address or a CIDR range; the first bad one. */
export function badProxyEntry(entries: readonly string[]): string | undefined {
  return entries.find((e) => {
    if (e.includes('/')) {
      try {
        ipaddr.parseCIDR(e);
        return false;
      } catch {
        return true;
      }
    }
    return parseAddress(e) === undefined;
  });
}

/** A membership test over addresses and CIDR ranges (IPv4 and IPv6). */
export function trustCheck(entries: readonly string[]): TrustCheck {
  const ranges = entries.map((e) =>
    e.includes('/')
      ? ipaddr.parseCIDR(e)
      : (() => {
          const a = parseAddress(e)!;
          return [a, a.kind() === 'ipv4' ? 32 : 128] as [ipaddr.IPv4 | ipaddr.IPv6, number];
        })(),
  );
  return (address) => {
    const a = parseAddress(address);
    if (a === undefined) return false;
    return ranges.some(([net, bits]) => a.kind() === net.kind() && a.match([net, bits] as never));
  };
}

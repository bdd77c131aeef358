// Outbound target policy (app-families.md §8: destinations on private, loopback or link-local addresses
// are refused unless allow-listed). A URL is checked at registration and again before every attempt:
// its host name is resolved, EVERY address it resolves to must pass, and the delivery then connects to
// the address that was checked (never resolving again), so a name that rebinds to a private address
// between the check and the connection (DNS rebinding) reaches nothing it should not.

import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

export interface TargetPolicy {
  /** `webhooks.allow_private_targets`: no address is refused. */
  allowPrivate: boolean;
  /** `webhooks.allowed_targets`: CIDRs, single addresses and host names delivered to even when private. */
  allowed: readonly string[];
  /** `webhooks.url_chars_max`. */
  urlCharsMax: number;
}

export interface ResolvedTarget {
  url: URL;
  /** The checked address the delivery connects to. */
  address: string;
  family: 4 | 6;
}

export type TargetResult =
  | { ok: true; target: ResolvedTarget }
  | { ok: false; code: 'webhook_url_invalid' | 'webhook_target_refused'; details: Record<string, unknown> };

/** Resolves a host name to every address it has (node:dns `lookup` with `all`). */
export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

/** Ranges no delivery goes to unless allowed: unspecified, private, shared, loopback, link-local, ULA, multicast. */
function refusedRanges(): BlockList {
  const b = new BlockList();
  for (const [net, bits] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const)
    b.addSubnet(net, bits, 'ipv4');
  for (const [net, bits] of [
    ['::', 128],
    ['::1', 128],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
    ['64:ff9b::', 96],
  ] as const)
    b.addSubnet(net, bits, 'ipv6');
  return b;
}

/** An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) is checked as the IPv4 address it carries. */
function unmapped(address: string): { address: string; type: 'ipv4' | 'ipv6' } {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m !== null) return { address: m[1]!, type: 'ipv4' };
  return { address, type: isIP(address) === 4 ? 'ipv4' : 'ipv6' };
}

export class TargetChecker {
  private readonly refused = refusedRanges();
  private readonly allowedNets = new BlockList();
  private readonly allowedHosts = new Set<string>();

  constructor(
    private readonly policy: TargetPolicy,
    private readonly resolve: Resolve = systemResolve,
  ) {
    for (const entry of policy.allowed) {
      const [net, bitsText] = entry.split('/');
      const family = isIP(net ?? '');
      if (family === 0) {
        this.allowedHosts.add(entry.toLowerCase());
        continue;
      }
      const type = family === 4 ? 'ipv4' : 'ipv6';
      const bits = bitsText === undefined ? (family === 4 ? 32 : 128) : Number(bitsText);
      this.allowedNets.addSubnet(net!, bits, type);
    }
  }

  /** Checks the URL's form only (no resolution): absolute http(s), no credentials, within the length cap. */
  parse(text: string): { ok: true; url: URL } | { ok: false; reason: string } {
    if (text.length > this.policy.urlCharsMax) return { ok: false, reason: 'too_long' };
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return { ok: false, reason: 'not_a_url' };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'scheme' };
    if (url.username !== '' || url.password !== '') return { ok: false, reason: 'credentials' };
    if (url.hostname === '') return { ok: false, reason: 'host' };
    return { ok: true, url };
  }

  /** Whether one address may be delivered to under the policy. */
  addressAllowed(address: string): boolean {
    if (this.policy.allowPrivate) return true;
    const a = unmapped(address);
    if (this.allowedNets.check(a.address, a.type)) return true;
    return !this.refused.check(a.address, a.type);
  }

  /** Parses, resolves and checks every address; the first checked address is the one to connect to. */
  async check(text: string): Promise<TargetResult> {
    const parsed = this.parse(text);
    if (!parsed.ok) return { ok: false, code: 'webhook_url_invalid', details: { reason: parsed.reason } };
    const url = parsed.url;
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const byName = this.allowedHosts.has(host.toLowerCase());
    let addresses: { address: string; family: number }[];
    if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) }];
    else {
      try {
        addresses = await this.resolve(host);
      } catch (e) {
        const reason = `unresolved: ${(e as { code?: string }).code ?? 'error'}`;
        return { ok: false, code: 'webhook_target_refused', details: { host, reason } };
      }
    }
    if (addresses.length === 0)
      return { ok: false, code: 'webhook_target_refused', details: { host, reason: 'unresolved' } };
    if (!byName) {
      const bad = addresses.find((a) => !this.addressAllowed(a.address));
      if (bad !== undefined)
        return {
          ok: false,
          code: 'webhook_target_refused',
          details: { host, address: bad.address, reason: 'private_address' },
        };
    }
    const first = addresses[0]!;
    return { ok: true, target: { url, address: first.address, family: first.family === 6 ? 6 : 4 } };
  }
}

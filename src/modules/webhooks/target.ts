// Outbound target policy: destinations that are not global unicast (private, loopback, link-local,
// site-local, documentation, an IPv4 special range carried inside IPv6, …: address-range.ts) are refused
// unless allow-listed. A URL is checked at registration and again before every attempt:
// its host name is resolved, EVERY address it resolves to must pass, and the delivery then connects to
// the address that was checked (never resolving again), so a name that rebinds to a private address
// between the check and the connection (DNS rebinding) reaches nothing it should not.

import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress, inNet, parseNet } from './address-range.js';

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

/** The range name a refused address was classified in (for the error's details). */
function rangeOf(address: string): string {
  try {
    return classifyAddress(address).range;
  } catch {
    return 'invalid';
  }
}

export class TargetChecker {
  private readonly allowedNets: NonNullable<ReturnType<typeof parseNet>>[] = [];
  private readonly allowedHosts = new Set<string>();

  constructor(
    private readonly policy: TargetPolicy,
    private readonly resolve: Resolve = systemResolve,
  ) {
    for (const entry of policy.allowed) {
      const net = parseNet(entry);
      if (net === undefined) this.allowedHosts.add(entry.toLowerCase());
      else this.allowedNets.push(net);
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

  /** Whether one address may be delivered to under the policy: global unicast, or allowed. */
  addressAllowed(address: string): boolean {
    if (this.policy.allowPrivate) return true;
    try {
      if (this.allowedNets.some((net) => inNet(address, net))) return true;
      return classifyAddress(address).global;
    } catch {
      return false;
    }
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
          details: { host, address: bad.address, reason: 'private_address', range: rangeOf(bad.address) },
        };
    }
    const first = addresses[0]!;
    return { ok: true, target: { url, address: first.address, family: first.family === 6 ? 6 : 4 } };
  }
}

// Defences against browsers used as proxies into a loopback node:
// - DNS rebinding: a hostile page re-points its own name at 127.0.0.1 and reads the HTTP routes as
//   same-origin. The browser still sends the hostile name in `Host` (RFC 9110 §7.2), so a request whose
//   `Host` names none of the node's names is refused with 421 `host_not_allowed`.
// - Cross-site WebSocket hijacking: browsers do not apply CORS to WebSocket handshakes, but they always
//   send `Origin` (RFC 6455 §4.1). An upgrade whose `Origin` is not in the CORS allow list is refused with
//   403 `origin_not_allowed`. No `Origin` header means a non-browser client, which is allowed.

import { type GatewayError, gatewayError } from './errors.js';

/** Loopback names always accepted unless the list is `*` (gateway.allowed_hosts). */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** The host name of a `Host` header without its port, lower-cased (`[::1]:8080` → `[::1]`). */
export function hostName(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end < 0 ? h : h.slice(0, end + 1);
  }
  const colon = h.indexOf(':');
  return colon < 0 ? h : h.slice(0, colon);
}

/** An IPv6 listen address as it appears in a `Host` header (`::1` → `[::1]`). */
function asHostName(name: string): string {
  const n = name.trim().toLowerCase();
  return n.includes(':') && !n.startsWith('[') ? `[${n}]` : n;
}

export type HostCheck = (host: string | undefined) => GatewayError | undefined;

/**
 * A checker for `Host` headers against `names` (`*` anywhere in it disables the check). A request
 * without `Host` passes: browsers always send one, so its absence is not a rebinding attack.
 */
export function createHostCheck(names: readonly string[]): HostCheck {
  if (names.includes('*')) return () => undefined;
  const allowed = new Set(names.map(asHostName));
  // The last header that passed, as sent: clients repeat theirs on every request of a connection.
  let lastAllowed: string | undefined;
  return (host) => {
    if (host === undefined || host === '' || host === lastAllowed) return undefined;
    const name = hostName(host);
    if (allowed.has(name)) {
      lastAllowed = host;
      return undefined;
    }
    return gatewayError('host_not_allowed', { host: name.slice(0, 256) });
  };
}

/** The refusal of a WebSocket upgrade from a browser page whose origin is not in `corsOrigins`. */
export function checkWsOrigin(
  origin: string | undefined,
  corsOrigins: readonly string[],
): GatewayError | undefined {
  if (origin === undefined) return undefined;
  if (corsOrigins.includes('*') || corsOrigins.includes(origin)) return undefined;
  return gatewayError('origin_not_allowed', { origin: origin.slice(0, 256) });
}

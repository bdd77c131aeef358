// The client behind a reverse proxy (docs/operations.md "Behind a reverse proxy"). With
// gateway.trusted_proxies set, a request whose socket peer is one of those proxies is attributed to the
// address its X-Forwarded-For names: walking the header from the right (the hop nearest to us), every
// trusted hop is skipped and the first untrusted one is the client. Without trusted proxies, or from a
// peer that is not one, the header is ignored (anyone can write it). Fastify's `trustProxy` is given the
// same list, so `request.ip` (HTTP, SSE) and the WebSocket upgrade path agree.

import { parseAddress, type TrustCheck } from '../util/ip-ranges.js';

export { badProxyEntry, type TrustCheck, trustCheck } from '../util/ip-ranges.js';

/** The client address of a connection from `socketAddress` carrying `forwardedFor`. */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trusted: TrustCheck | undefined,
): string | undefined {
  if (trusted === undefined || socketAddress === undefined || !trusted(socketAddress)) return socketAddress;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
  const hops = header
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  let client = socketAddress;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (parseAddress(hop) === undefined) return client;
    client = hop;
    if (!trusted(hop)) return client;
  }
  return client;
}

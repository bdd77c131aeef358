// The text forms of `network.listen` and `network.peers` (src/p2p/README.md "Configuration").
//   listen: `host:port`, `[v6]:port`; empty = no listener.
//   peer:   `<public key text>@host:port` (dial and accept) or `<public key text>` (accept only:
//           the peer dials us, an observer behind a firewall for instance).
// The public key text is the Ed25519 form of src/crypto/keys.ts (`ed0120` + 64 hex digits); its
// canonical (upper-case) text is the peer id everywhere else.
import { isKeyTextError, publicKeyFromText, publicKeyToText } from '../crypto/keys.js';
import { P2pError } from './errors.js';

export interface HostPort {
  readonly host: string;
  readonly port: number;
}

export interface PeerEntry {
  /** Canonical public key text: the peer id. */
  readonly peerId: string;
  readonly publicKey: Uint8Array;
  /** Where to dial; undefined for an accept-only entry. */
  readonly address: HostPort | undefined;
}

/** Longest host name accepted (DNS names stop at 253 characters). */
export const HOST_CHARS_MAX = 253;

const HOST_PORT = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/;

/** Parses `host:port` / `[v6]:port`; answers undefined for anything else. */
export function parseHostPort(text: string): HostPort | undefined {
  if (typeof text !== 'string' || text.length > HOST_CHARS_MAX + 8) return undefined;
  const m = HOST_PORT.exec(text);
  if (m === null) return undefined;
  const host = m[1] ?? m[2] ?? '';
  const port = Number(m[3]);
  if (host.length === 0 || host.length > HOST_CHARS_MAX || port > 65_535) return undefined;
  return { host, port };
}

export function formatHostPort(a: HostPort): string {
  return a.host.includes(':') ? `[${a.host}]:${a.port}` : `${a.host}:${a.port}`;
}

/** `network.listen`: undefined when empty (no listener). Throws `p2p_invalid_address`. */
export function parseListen(text: string): HostPort | undefined {
  if (text === '') return undefined;
  const a = parseHostPort(text);
  if (a === undefined) {
    throw new P2pError('p2p_invalid_address', `network.listen must be host:port or empty, got '${text}'`);
  }
  return a;
}

/** One `network.peers` entry. Throws `p2p_invalid_peer` naming the entry's position. */
export function parsePeerEntry(text: string, index = 0): PeerEntry {
  const at = typeof text === 'string' ? text.indexOf('@') : -1;
  const keyText = at < 0 ? text : text.slice(0, at);
  const key = publicKeyFromText(keyText);
  if (isKeyTextError(key)) {
    throw new P2pError('p2p_invalid_peer', `network.peers[${index}]: ${key.message}`);
  }
  if (key.algorithm !== 'ed25519') {
    throw new P2pError('p2p_invalid_peer', `network.peers[${index}]: a peer key must be ed25519`);
  }
  let address: HostPort | undefined;
  if (at >= 0) {
    address = parseHostPort(text.slice(at + 1));
    if (address === undefined || address.port === 0) {
      throw new P2pError(
        'p2p_invalid_peer',
        `network.peers[${index}]: address after '@' must be host:port with a port in 1..65535`,
      );
    }
  }
  return { peerId: publicKeyToText(key), publicKey: key.bytes, address };
}

/** The whole list: each entry parsed, the own key skipped, a repeated key refused. */
export function parsePeerEntries(texts: readonly string[], selfId?: string): PeerEntry[] {
  const out: PeerEntry[] = [];
  const seen = new Set<string>();
  texts.forEach((t, i) => {
    const e = parsePeerEntry(t, i);
    if (seen.has(e.peerId)) {
      throw new P2pError('p2p_invalid_peer', `network.peers[${i}]: key listed twice`);
    }
    seen.add(e.peerId);
    if (e.peerId !== selfId) out.push(e);
  });
  return out;
}

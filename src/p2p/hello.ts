// The HELLO frame's payload: each side's first frame once the handshake has authenticated it.
//   magic "TRNP" | version u8 | role u8 (0 validator, 1 observer) | network id length u8 | network id (UTF-8)
// A different version or network id closes the connection (counted as `hello_mismatch`).

export const HELLO_MAGIC = new Uint8Array([0x54, 0x52, 0x4e, 0x50]); // "TRNP"
export const P2P_PROTOCOL_VERSION = 1;
/** Longest network id (the chain id) carried in a HELLO, in UTF-8 bytes. */
export const NETWORK_ID_BYTES_MAX = 255;

export type PeerRole = 'validator' | 'observer';
const ROLES: readonly PeerRole[] = ['validator', 'observer'];

export interface Hello {
  readonly version: number;
  readonly role: PeerRole;
  readonly networkId: string;
}

export function encodeHello(h: Hello): Uint8Array {
  const id = new TextEncoder().encode(h.networkId);
  if (id.length > NETWORK_ID_BYTES_MAX) throw new RangeError('network id too long');
  const out = new Uint8Array(HELLO_MAGIC.length + 3 + id.length);
  out.set(HELLO_MAGIC, 0);
  out[4] = h.version;
  out[5] = ROLES.indexOf(h.role);
  out[6] = id.length;
  out.set(id, 7);
  return out;
}

/** Strict: wrong magic, unknown role, a length that does not match, invalid UTF-8 → undefined. */
export function decodeHello(b: Uint8Array): Hello | undefined {
  if (b.length < HELLO_MAGIC.length + 3) return undefined;
  for (let i = 0; i < HELLO_MAGIC.length; i++) if (b[i] !== HELLO_MAGIC[i]) return undefined;
  const role = ROLES[b[5]!];
  if (role === undefined || b.length !== 7 + b[6]!) return undefined;
  let networkId: string;
  try {
    networkId = new TextDecoder('utf-8', { fatal: true }).decode(b.subarray(7));
  } catch {
    return undefined;
  }
  return { version: b[4]!, role, networkId };
}

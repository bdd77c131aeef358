// Test helper: a software WebAuthn authenticator (ES256, "none" attestation) that answers the options the
// node's passkey routes give, as a browser would hand them to a platform authenticator: client data JSON
// naming the challenge and origin, authenticator data (relying-party id hash, flags, signature counter,
// and at registration the credential id and COSE public key), a CBOR attestation object, and an ECDSA
// P-256 signature over authenticatorData ‖ SHA-256(clientDataJSON). Built from node:crypto and the CBOR
// and base64url helpers @simplewebauthn/server exports; nothing of the node's own code.

import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

type CBORType = Parameters<typeof isoCBOR.encode>[0];

const sha256 = (b: Uint8Array | string) => new Uint8Array(createHash('sha256').update(b).digest());
const b64 = (b: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(b));
const u32 = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
};
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** User present and verified; +attested credential data at registration. */
const UP_UV = 0x05;
const AT = 0x40;

export class SoftAuthenticator {
  readonly credentialId = new Uint8Array(randomBytes(16));
  readonly #key: KeyObject;
  readonly #cose: Uint8Array;
  /** The signature counter the next assertion carries (incremented before each). */
  counter = 0;

  constructor(
    readonly rpId: string,
    readonly origin: string,
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.#key = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    const coord = (s: string | undefined) => new Uint8Array(Buffer.from(s ?? '', 'base64url'));
    this.#cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, coord(jwk.x)],
        [-3, coord(jwk.y)],
      ]),
    );
  }

  get id(): string {
    return b64(this.credentialId);
  }

  #clientData(type: string, challenge: string, origin: string): Uint8Array {
    return new TextEncoder().encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** A registration response to creation options (`{challenge, rp: {id}}`). */
  create(options: { challenge: string }, origin = this.origin) {
    const idLen = new Uint8Array([this.credentialId.length >> 8, this.credentialId.length & 0xff]);
    const authData = concat(
      sha256(this.rpId),
      new Uint8Array([UP_UV | AT]),
      u32(this.counter),
      new Uint8Array(16),
      idLen,
      this.credentialId,
      this.#cose,
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, CBORType>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, CBORType>()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(this.#clientData('webauthn.create', options.challenge, origin)),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** An assertion for request options; `counter` overrides the next counter (a stale one, to replay). */
  get(options: { challenge: string }, opts: { counter?: number; origin?: string } = {}) {
    const counter = opts.counter ?? ++this.counter;
    const clientDataJSON = this.#clientData('webauthn.get', options.challenge, opts.origin ?? this.origin);
    const authData = concat(sha256(this.rpId), new Uint8Array([UP_UV]), u32(counter));
    const signature = sign('sha256', concat(authData, sha256(clientDataJSON)), this.#key);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(new Uint8Array(signature)),
      },
      clientExtensionResults: {},
    };
  }
}

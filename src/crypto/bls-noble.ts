// BLS12-381 verification in pure JavaScript (@noble/curves), for the browser backend: the same scheme as
// bls.ts (public keys in G1, signatures in G2, the proof-of-possession ciphersuite), the same checks on
// every point read (compressed length, on the curve, in the prime-order subgroup, not infinity), and the
// same answers: false, never a throw. Verification only: a browser never signs consensus votes, it
// checks commit certificates (sdk/light-client.ts). Slow (tens of ms per pairing) but enough for that.

import { bls12_381 } from '@noble/curves/bls12-381';

const DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
const PUBLIC_KEY_BYTES = 48;
const SIGNATURE_BYTES = 96;
/** The signature scheme, read when first used (nothing runs at import: bundles drop it when unused). */
const sigs = () => bls12_381.longSignatures;
type G1 = ReturnType<typeof bls12_381.G1.Point.fromBytes>;
type G2 = ReturnType<typeof bls12_381.G2.Point.fromBytes>;

function readKey(bytes: Uint8Array): G1 | undefined {
  if (!(bytes instanceof Uint8Array) || bytes.length !== PUBLIC_KEY_BYTES) return undefined;
  try {
    const p = bls12_381.G1.Point.fromBytes(bytes);
    p.assertValidity();
    return p.is0() || !p.isTorsionFree() ? undefined : p;
  } catch {
    return undefined;
  }
}

function readSignature(bytes: Uint8Array): G2 | undefined {
  if (!(bytes instanceof Uint8Array) || bytes.length !== SIGNATURE_BYTES) return undefined;
  try {
    const p = bls12_381.G2.Point.fromBytes(bytes);
    p.assertValidity();
    return p.is0() || !p.isTorsionFree() ? undefined : p;
  } catch {
    return undefined;
  }
}

export function nobleBlsIsValidPublicKey(publicKey: Uint8Array): boolean {
  return readKey(publicKey) !== undefined;
}

/** One aggregate signature by every key over one message (keys whose possession was proved). */
export function nobleBlsFastAggregateVerify(
  message: Uint8Array,
  publicKeys: Uint8Array[],
  signature: Uint8Array,
): boolean {
  if (!(message instanceof Uint8Array) || !Array.isArray(publicKeys) || publicKeys.length === 0) return false;
  const sig = readSignature(signature);
  if (sig === undefined) return false;
  const keys: G1[] = [];
  for (const k of publicKeys) {
    const p = readKey(k);
    if (p === undefined) return false;
    keys.push(p);
  }
  try {
    return sigs().verify(sig, sigs().hash(message, DST), sigs().aggregatePublicKeys(keys));
  } catch {
    return false;
  }
}

export function nobleBlsVerify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  return nobleBlsFastAggregateVerify(message, [publicKey], signature);
}

// BLS12-381 signatures for consensus (docs/design/consensus.md "Aggregated BLS votes"; 48-byte public
// keys, 96-byte signatures) through @chainsafe/blst, the "minimal-pubkey-size" variant of
// draft-irtf-cfrg-bls-signature-05: public keys in G1, signatures in G2, hashed to the curve with
// the proof-of-possession ciphersuite tag below (§4.2.3), the same as Ethereum's consensus layer.
//
// Every point read from bytes is checked: compressed length only, on the curve, in the prime-order
// subgroup, and not the point at infinity (an infinity key would accept an infinity signature
// for any message). Verification answers false and never throws.
//
// Fast aggregate verification is only sound for keys whose owners proved possession of their
// secret (rogue-key attack, draft §3.3): consensus must check `blsVerifyPossession` when a key is
// registered. See README.md for why our proof is a domain-separated ordinary signature.
import { createRequire } from 'node:module';
import type * as Blst from '@chainsafe/blst';
import { CryptoError } from './errors.js';
import type { PublicKey } from './keys.js';
import { randomBytes } from './random.js';

// The native addon is loaded on first use, not at import: the CLI's client commands and the SDK in
// Node import this module through the crypto backend but never touch BLS (CLI start-up).
const requireBlst = createRequire(import.meta.url);
let loaded: typeof Blst | undefined;
function blst(): typeof Blst {
  loaded ??= requireBlst('@chainsafe/blst') as typeof Blst;
  return loaded;
}
type BlstSecretKey = Blst.SecretKey;
type BlstPublicKey = Blst.PublicKey;
type BlstSignature = Blst.Signature;

export const BLS_PUBLIC_KEY_BYTES = 48;
export const BLS_SIGNATURE_BYTES = 96;
export const BLS_SECRET_KEY_BYTES = 32;
/** KeyGen needs at least 32 bytes of input key material (draft §2.3). */
export const BLS_IKM_BYTES_MIN = 32;
/** The ciphersuite @chainsafe/blst signs and verifies with; recorded here for documentation. */
export const BLS_DST = 'BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_';
/** Prefix of the message signed as proof of possession; no vote or other message starts so. */
export const BLS_POP_MESSAGE_PREFIX = 'torana/bls-pop/v1:';

export class BlsKeyPair {
  readonly publicKey: PublicKey;
  readonly #secret: BlstSecretKey;

  private constructor(secret: BlstSecretKey) {
    this.#secret = secret;
    this.publicKey = { algorithm: 'bls12_381', bytes: secret.toPublicKey().toBytes(true) };
  }

  /** Deterministic KeyGen (draft §2.3) from at least 32 bytes of secret input key material. */
  static fromSeed(ikm: Uint8Array): BlsKeyPair {
    if (!(ikm instanceof Uint8Array) || ikm.length < BLS_IKM_BYTES_MIN) {
      throw new CryptoError('invalid_secret', `BLS key material must be at least ${BLS_IKM_BYTES_MIN} bytes`);
    }
    return new BlsKeyPair(blst().SecretKey.fromKeygen(ikm));
  }

  static generate(): BlsKeyPair {
    return BlsKeyPair.fromSeed(randomBytes(BLS_IKM_BYTES_MIN));
  }

  /** Rebuilds a key pair from the 32-byte big-endian scalar that `secretBytes()` returns. */
  static fromSecretBytes(bytes: Uint8Array): BlsKeyPair {
    if (!(bytes instanceof Uint8Array) || bytes.length !== BLS_SECRET_KEY_BYTES) {
      throw new CryptoError('invalid_secret', `BLS secret key must be ${BLS_SECRET_KEY_BYTES} bytes`);
    }
    try {
      return new BlsKeyPair(blst().SecretKey.fromBytes(bytes));
    } catch (cause) {
      throw new CryptoError('invalid_secret', 'BLS secret key is not a valid non-zero scalar', { cause });
    }
  }

  sign(message: Uint8Array): Uint8Array {
    return this.#secret.sign(message).toBytes(true);
  }

  secretBytes(): Uint8Array {
    return this.#secret.toBytes();
  }
}

/** Deserialises and fully validates a public key, or answers undefined. */
function readPublicKey(bytes: unknown): BlstPublicKey | undefined {
  if (!(bytes instanceof Uint8Array) || bytes.length !== BLS_PUBLIC_KEY_BYTES) return undefined;
  try {
    return blst().PublicKey.fromBytes(bytes, true);
  } catch {
    return undefined;
  }
}

/** Deserialises and fully validates a signature (subgroup and infinity checks), or undefined. */
function readSignature(bytes: unknown): BlstSignature | undefined {
  if (!(bytes instanceof Uint8Array) || bytes.length !== BLS_SIGNATURE_BYTES) return undefined;
  try {
    return blst().Signature.fromBytes(bytes, true, true);
  } catch {
    return undefined;
  }
}

export function blsIsValidPublicKey(publicKey: Uint8Array): boolean {
  return readPublicKey(publicKey) !== undefined;
}

export function blsVerify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (!(message instanceof Uint8Array)) return false;
  const pk = readPublicKey(publicKey);
  const sig = readSignature(signature);
  if (pk === undefined || sig === undefined) return false;
  try {
    return blst().verify(message, pk, sig, false, false);
  } catch {
    return false;
  }
}

/** One signature for many: the group sum. Throws `bls_invalid_input` on an empty or invalid list. */
export function blsAggregateSignatures(sigs: Uint8Array[]): Uint8Array {
  if (sigs.length === 0) throw new CryptoError('bls_invalid_input', 'no signatures to aggregate');
  if (sigs.some((s) => readSignature(s) === undefined)) {
    throw new CryptoError('bls_invalid_input', 'a signature to aggregate is not a valid G2 point');
  }
  return blst().aggregateSerializedSignatures(sigs, false).toBytes(true);
}

/** One public key for many: the group sum. Throws `bls_invalid_input` on an empty or invalid list. */
export function blsAggregatePublicKeys(pks: Uint8Array[]): Uint8Array {
  if (pks.length === 0) throw new CryptoError('bls_invalid_input', 'no public keys to aggregate');
  if (pks.some((p) => readPublicKey(p) === undefined)) {
    throw new CryptoError('bls_invalid_input', 'a public key to aggregate is not a valid G1 point');
  }
  return blst().aggregateSerializedPublicKeys(pks, false).toBytes(true);
}

/**
 * Checks that `aggregate` is the sum of signatures on one `message` by exactly `publicKeys`
 * (draft §3.3.4; keys must have passed a proof of possession). Never throws.
 */
export function blsFastAggregateVerify(
  message: Uint8Array,
  publicKeys: Uint8Array[],
  aggregate: Uint8Array,
): boolean {
  if (!(message instanceof Uint8Array) || !Array.isArray(publicKeys) || publicKeys.length === 0) return false;
  const sig = readSignature(aggregate);
  if (sig === undefined) return false;
  const pks: BlstPublicKey[] = [];
  for (const bytes of publicKeys) {
    const pk = readPublicKey(bytes);
    if (pk === undefined) return false;
    pks.push(pk);
  }
  try {
    return blst().fastAggregateVerify(message, pks, sig, false);
  } catch {
    return false;
  }
}

/** One aggregate signature by every key of `publicKeys` over `message`: a `blsFastAggregateVerify` check. */
export interface BlsAggregateCheck {
  message: Uint8Array;
  publicKeys: Uint8Array[];
  signature: Uint8Array;
}

/**
 * True only when every check would pass `blsFastAggregateVerify`, decided with one randomized batch:
 * each check's key aggregate and signature are weighted by a random non-zero 64-bit scalar and the
 * whole list costs one multi-pairing with one final exponentiation (blst's
 * `verify_multiple_aggregate_signatures`) instead of a pairing check each. Invalid checks cannot cancel
 * out: a list holding one is accepted with probability at most 2^-64 over the scalars. Those scalars are
 * drawn inside the library, from its thread-local CSPRNG (seeded by the operating system), at every call:
 * this is for verifiers (`torana verify`), which may use randomness, never for consensus or the executor,
 * which must not. False says that some check fails, not which: the caller checks them one by one to
 * name it. Every point is read and checked as for `blsFastAggregateVerify`. An empty list is true. Never
 * throws.
 */
export function blsBatchFastAggregateVerify(checks: BlsAggregateCheck[]): boolean {
  if (!Array.isArray(checks)) return false;
  if (checks.length === 0) return true;
  // Keys recur from check to check (one roster signs a chain): each is read and subgroup-checked once.
  const keys = new Map<string, BlstPublicKey | undefined>();
  const sets: Blst.SignatureSet[] = [];
  try {
    for (const c of checks) {
      if (!(c.message instanceof Uint8Array) || !Array.isArray(c.publicKeys) || c.publicKeys.length === 0)
        return false;
      const sig = readSignature(c.signature);
      if (sig === undefined) return false;
      const pks: BlstPublicKey[] = [];
      for (const bytes of c.publicKeys) {
        if (!(bytes instanceof Uint8Array)) return false;
        const id = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
        let pk = keys.get(id);
        if (pk === undefined && !keys.has(id)) {
          pk = readPublicKey(bytes);
          keys.set(id, pk);
        }
        if (pk === undefined) return false;
        pks.push(pk);
      }
      const pk = pks.length === 1 ? pks[0]! : blst().aggregatePublicKeys(pks, false);
      sets.push({ msg: c.message, pk, sig });
    }
    // Points already checked above: no second validation inside the batch.
    return blst().verifyMultipleAggregateSignatures(sets, false, false);
  } catch {
    return false;
  }
}

function possessionMessage(publicKey: Uint8Array): Uint8Array {
  const prefix = new TextEncoder().encode(BLS_POP_MESSAGE_PREFIX);
  const out = new Uint8Array(prefix.length + publicKey.length);
  out.set(prefix, 0);
  out.set(publicKey, prefix.length);
  return out;
}

/** A proof that the holder of `kp` knows its secret key: its signature over its own public key. */
export function blsProvePossession(kp: BlsKeyPair): Uint8Array {
  return kp.sign(possessionMessage(kp.publicKey.bytes));
}

export function blsVerifyPossession(publicKey: Uint8Array, proof: Uint8Array): boolean {
  if (!(publicKey instanceof Uint8Array)) return false;
  return blsVerify(publicKey, possessionMessage(publicKey), proof);
}

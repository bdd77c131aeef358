// Zero-knowledge wire types (the zk layer's, src/zk/): the BN254 scalar-field element `Field` and the
// Groth16 proof as instructions carry them. What a proof proves (roster membership, a usage record, a
// note spend) is up to the instruction that carries it.

import type { Codec, Infer } from '../codec/codec.js';
import { struct } from '../codec/compound.js';
import { fixedBytes } from '../codec/primitives.js';
import { textType } from '../codec/text.js';
import { fromHex, toHex } from '../util/hex.js';
import { FIELD_BYTES, fieldFromBytes } from '../zk/field.js';

/** The BN254 scalar-field modulus r, and the field element's 64-hex-digit text (src/zk/field.ts). */
export { FIELD_BYTES, FIELD_ORDER as BN254_R, fieldToHex as fieldText } from '../zk/field.js';

/**
 * A BN254 scalar-field element: 32 bytes big-endian, below r. TS and JSON: 64 lower-case hex digits
 * without 0x.
 */
export const Field: Codec<string> = textType<Uint8Array>({
  name: 'Field',
  base: fixedBytes(FIELD_BYTES),
  format: '64 hex digits, big-endian, below the BN254 scalar-field modulus',
  parse: (t) => fromHex(t, FIELD_BYTES),
  print: (b) => toHex(b),
  check: (b) => (fieldFromBytes(b) !== undefined ? undefined : 'not below the BN254 scalar-field modulus'),
});

/** A Groth16 proof: a (G1 x‖y), b (G2 x.c1‖x.c0‖y.c1‖y.c0, snarkjs' Solidity order), c (G1), big-endian. */
export const Groth16ProofCodec = struct('Groth16Proof', {
  a: fixedBytes(64),
  b: fixedBytes(128),
  c: fixedBytes(64),
});
export type Groth16Proof = Infer<typeof Groth16ProofCodec>;

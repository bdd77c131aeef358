// snarkjs' proof JSON ↔ the ledger's Groth16Proof bytes: a = x ‖ y,
// b = x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0 (the order of snarkjs' exportSolidityCallData), c = x ‖ y, each
// coordinate 32 bytes big-endian. Used by the SDK after proving and by tests cross-checking the
// verifier against snarkjs.
import type { Groth16ProofBytes } from './groth16-verify.js';

/** snarkjs' proof object (projective coordinates as decimal strings, z = 1). */
export interface SnarkjsProof {
  pi_a: [string, string, string];
  pi_b: [[string, string], [string, string], [string, string]];
  pi_c: [string, string, string];
  protocol: string;
  curve: string;
}

function put(out: Uint8Array, offset: number, value: string): void {
  let v = BigInt(value);
  if (v < 0n || v >= 1n << 256n) throw new RangeError('coordinate out of range');
  for (let i = offset + 31; i >= offset; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
}

function get(bytes: Uint8Array, offset: number): string {
  let v = 0n;
  for (let i = offset; i < offset + 32; i++) v = (v << 8n) | BigInt(bytes[i]!);
  return v.toString();
}

export function proofToBytes(proof: SnarkjsProof): Groth16ProofBytes {
  const a = new Uint8Array(64);
  const b = new Uint8Array(128);
  const c = new Uint8Array(64);
  put(a, 0, proof.pi_a[0]);
  put(a, 32, proof.pi_a[1]);
  put(b, 0, proof.pi_b[0][1]);
  put(b, 32, proof.pi_b[0][0]);
  put(b, 64, proof.pi_b[1][1]);
  put(b, 96, proof.pi_b[1][0]);
  put(c, 0, proof.pi_c[0]);
  put(c, 32, proof.pi_c[1]);
  return { a, b, c };
}

export function proofFromBytes(p: Groth16ProofBytes): SnarkjsProof {
  return {
    pi_a: [get(p.a, 0), get(p.a, 32), '1'],
    pi_b: [
      [get(p.b, 32), get(p.b, 0)],
      [get(p.b, 96), get(p.b, 64)],
      ['1', '0'],
    ],
    pi_c: [get(p.c, 0), get(p.c, 32), '1'],
    protocol: 'groth16',
    curve: 'bn128',
  };
}

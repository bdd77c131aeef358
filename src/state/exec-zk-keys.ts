// Verifying keys from network parameters and the proof check of execution. The keys are custom
// parameters, each snarkjs' verification-key JSON (src/zk/verifying-key.ts): those a ledger module
// declares for its private instructions (zk-parameters.ts), then the shielded pool's `shielded_note_vk`.
// Verification is src/zk/groth16-verify.ts: pure and synchronous. A verdict the context's proof port
// already holds (proof-verdicts.ts: computed at admission by the verification pool) is used instead;
// it is the same pure function of the same claim, so only the time taken differs.

import type { Json } from '../codec/codec.js';
import type { Groth16Proof } from '../model/proofs.js';
import { verifyGroth16 } from '../zk/groth16-verify.js';
import { VerifyingKeyCache } from '../zk/verifying-key.js';
import { type ExecContext, type Fail, fail } from './exec-context.js';
import { verifyingKeyParameters } from './zk-parameters.js';

/**
 * Parsed keys by content hash. Process-wide on purpose: it memoises a pure function of the
 * parameter's content (parsing validates every curve point, a few milliseconds per key), so it
 * holds no state that could make two nodes, or two runs, disagree.
 */
const KEYS = new VerifyingKeyCache();

/** zk_keys_not_configured unless every verifying-key parameter is set (checked in declared order). */
export function requireZkKeys(x: ExecContext): Fail | undefined {
  const custom = x.view.parameters().custom;
  for (const { id } of verifyingKeyParameters())
    if (!custom.has(id)) return fail('zk_keys_not_configured', `the ${id} parameter is not set`);
  return undefined;
}

/**
 * Verifies `proof` for `signals` (snarkjs order) under the key in parameter `id`:
 * zk_keys_not_configured when the key is absent or malformed, zk_proof_invalid when it fails.
 */
export function verifyProof(
  x: ExecContext,
  id: string,
  proof: Groth16Proof,
  signals: readonly bigint[],
): Fail | undefined {
  const payload: Json | undefined = x.view.parameters().custom.get(id);
  if (payload === undefined) return fail('zk_keys_not_configured', `the ${id} parameter is not set`);
  const key = KEYS.get(payload);
  if (key === undefined)
    return fail('zk_keys_not_configured', `the ${id} parameter is not a valid Groth16 key`);
  const claim = { key: payload, proof, signals };
  let valid = x.proofs?.verdict(claim);
  if (valid === undefined) {
    valid = verifyGroth16(key, proof, signals);
    x.proofs?.computed(claim, valid);
  }
  return valid
    ? undefined
    : fail('zk_proof_invalid', `the proof does not verify under ${id} for this call and action`);
}

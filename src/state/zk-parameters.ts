// The zero-knowledge parameters a ledger module declares (from its `wire.ts`, so before any block runs):
// the verifying keys its private instructions prove against and the custom parameters of the entry fee it
// charges through the shielded pool (exec-shielded.ts `payFee`). The pool and the proof check
// (exec-zk-keys.ts) are the core's and name no module; they read the declared parameters here. At most
// one module declares them (a second declaration is a start-up error), so the set of keys and the
// fee's parameters are fixed for a build and the same on every node.

/** A verifying-key parameter: its custom parameter id and the artifact in zk/artifacts/ its dev key is. */
export interface VerifyingKeyParameter {
  readonly id: string;
  readonly artifact: string;
}

export interface ZkParameters {
  /** The module's verifying keys, checked before the pool's own (`shielded_note_vk`), in this order. */
  readonly verifyingKeys: readonly VerifyingKeyParameter[];
  /** The custom parameter of the entry fee (a decimal in the native asset) and of its treasury account. */
  readonly entryFee: string;
  readonly feeAccount: string;
  /** The feature the capabilities document lists while a development verifying key is configured. */
  readonly devKeysFeature: string;
}

/** The pool's own key: note spends prove against it. */
export const NOTE_VK: VerifyingKeyParameter = { id: 'shielded_note_vk', artifact: 'note_spend' };

let declared: ZkParameters | undefined;

/** Declares the module's zero-knowledge parameters (once per process; the same again is a no-op). */
export function declareZkParameters(p: ZkParameters): void {
  if (declared !== undefined && JSON.stringify(declared) !== JSON.stringify(p))
    throw new Error('the zero-knowledge parameters are declared by one module only');
  declared = Object.freeze({ ...p, verifyingKeys: Object.freeze([...p.verifyingKeys]) });
}

/** The declared parameters, or undefined when no installed module declares any. */
export function zkParameters(): ZkParameters | undefined {
  return declared;
}

/** Every verifying-key parameter, in check order: the module's, then the pool's own. */
export function verifyingKeyParameters(): readonly VerifyingKeyParameter[] {
  return [...(declared?.verifyingKeys ?? []), NOTE_VK];
}

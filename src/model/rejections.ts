// Rejection codes (docs/errors.md §Ledger rejections). A rejection is a result, not an exception: a
// stable string code with a never-reused number, the index of the failing instruction, and a message.
// Checks run in a fixed order so the first failing check wins (TigerBeetle-style result codes). The
// numbers are in the core's tag tables (model/tags.ts REJECTION_NUMBERS); the meanings of the core's codes
// are here, a module's are declared in its `wire.ts` (`declareRejections`) and documented on its page.

import type { Infer } from '../codec/codec.js';
import { option, struct } from '../codec/compound.js';
import { string, varuint } from '../codec/primitives.js';
import { textType } from '../codec/text.js';
import { REJECTION_NUMBERS, type RejectionCode } from './tags.js';

export type { RejectionCode } from './tags.js';

/** The core's codes: code → [number, meaning] (the number repeats model/tags.ts, checked below). */
const CORE_REJECTIONS = {
  // 1xx: admission (checked before a transaction is queued)
  chain_id_mismatch: [101, 'the transaction names another chain'],
  creation_time_in_future: [102, 'creation time is further in the future than the allowed clock drift'],
  transaction_expired: [103, 'the time to live has passed'],
  algorithm_not_allowed: [104, 'the signing algorithm is not allowed on this chain'],
  signature_invalid: [105, 'the signature does not verify against the authority key'],
  transaction_too_large: [106, 'the encoded transaction is larger than the limit'],
  too_many_instructions: [107, 'more instructions than the limit'],
  no_instructions: [108, 'a transaction must carry at least one instruction'],
  metadata_too_large: [109, 'transaction metadata larger than the limit'],
  transaction_weight_exceeded: [
    110,
    'the transaction weight (its execution cost, docs/cost-model.md) exceeds TransactionMaxWeight',
  ],
  // 2xx: authority and permissions
  authority_not_found: [201, 'the authority account is not registered'],
  permission_denied: [202, 'the authority lacks the permission for this instruction'],
  debit_not_granted: [203, 'a delegate account debited an account that did not grant it CanTransferFrom'],
  // 3xx: entities
  domain_not_found: [301, 'no such domain'],
  account_not_found: [302, 'no such account'],
  asset_definition_not_found: [303, 'no such asset definition'],
  asset_not_found: [304, 'no such asset'],
  nft_not_found: [305, 'no such NFT'],
  role_not_found: [306, 'no such role'],
  peer_not_found: [307, 'no such peer'],
  already_exists: [308, 'an entity with this id is already registered'],
  not_owner: [309, 'the source does not own the object'],
  metadata_key_not_found: [310, 'no such metadata key'],
  permission_not_held: [311, 'the account does not hold this permission or role'],
  domain_not_empty: [312, 'the domain still holds accounts, definitions or NFTs'],
  reserved_domain: [313, 'the genesis domain cannot be unregistered'],
  last_validator: [314, 'the last active validator cannot be unregistered'],
  // 4xx: amounts and invariants
  invalid_amount: [401, 'the amount is zero or has more fraction digits than the definition scale'],
  insufficient_funds: [402, 'the balance is smaller than the amount'],
  overflow: [403, 'the result exceeds the 128-bit mantissa'],
  not_mintable: [404, 'the definition may not be minted again'],
  same_account: [405, 'source and destination are the same account'],
  invalid_parameter: [406, 'the parameter value is out of range'],
  invalid_proof_of_possession: [407, 'the proof of possession does not verify against the BLS key'],
  // 5xx: runtime upgrades
  upgrade_not_found: [501, 'no such runtime upgrade'],
  upgrade_invalid_state: [502, 'the upgrade is not in the Proposed state'],
  upgrade_invalid_manifest: [503, 'the manifest is inconsistent (version, heights)'],
  // 6xx: the native asset charge, proofs and the shielded pool (the other 6xx codes are a module's)
  conference_native_asset_not_configured: [
    619,
    'the native_asset parameter is missing or names no asset definition',
  ],
  zk_keys_not_configured: [622, 'the zero-knowledge verifying keys are not configured'],
  zk_proof_invalid: [623, 'the zero-knowledge proof does not verify for this call and action'],
  nullifier_reused: [624, 'the nullifier has already been spent'],
  insufficient_shielded_value: [625, 'no note spend pays the entry fee'],
  unknown_root: [626, 'the note spend names a pool root that is not among the recent roots'],
  shielded_pool_not_configured: [
    627,
    'the shielded_pool_account or conference_entry_fee parameter is missing or invalid',
  ],
  shielded_pool_full: [628, 'the shielded pool tree holds 65,536 notes'],
  shielded_pool_locked: [
    629,
    'the shielded pool account is debited other than by a note spend, or replaced while it backs notes',
  ],
  shielded_note_below_minimum: [
    630,
    'the note is worth less than the ShieldedNoteMinUnits parameter (unset: one whole native unit)',
  ],
  shielded_spend_without_fee: [632, 'a note spend is refused while the entry fee is zero'],
  // 9xx: execution limits
  execution_limit: [901, 'the transaction exceeded an execution limit'],
} as const satisfies { readonly [C in RejectionCode]?: readonly [(typeof REJECTION_NUMBERS)[C], string] };

/**
 * Every declared code: code → [number, meaning]. The core's from the start, a module's once its
 * `wire.ts` has run (`declareRejections`); docs/errors.md and the modules' pages list them.
 */
export const REJECTION_CODES: { readonly [C in RejectionCode]: readonly [number, string] } = {
  ...CORE_REJECTIONS,
} as { [C in RejectionCode]: readonly [number, string] };

/** Declares the meanings of a module's rejection codes (their numbers are in model/tags.ts). */
export function declareRejections(meanings: Readonly<Partial<Record<RejectionCode, string>>>): void {
  for (const [code, meaning] of Object.entries(meanings) as [RejectionCode, string][]) {
    if (Object.hasOwn(REJECTION_CODES, code)) throw new Error(`rejection ${code} is declared twice`);
    (REJECTION_CODES as Record<string, readonly [number, string]>)[code] = [REJECTION_NUMBERS[code], meaning];
  }
}

/** The codes no one has declared a meaning for (empty once every module's wire is installed). */
export function undeclaredRejections(): RejectionCode[] {
  return (Object.keys(REJECTION_NUMBERS) as RejectionCode[]).filter(
    (c) => !Object.hasOwn(REJECTION_CODES, c),
  );
}

const byNumber = new Map<number, RejectionCode>(
  Object.entries(REJECTION_NUMBERS).map(([code, n]) => [n, code as RejectionCode]),
);

export function isRejectionCode(code: string): code is RejectionCode {
  return Object.hasOwn(REJECTION_NUMBERS, code);
}

/** Wire form: the code's number; text and JSON form: the code string. */
export const RejectionCodeCodec = textType<number>({
  name: 'RejectionCode',
  base: varuint,
  format: 'a rejection code such as insufficient_funds',
  parse: (t) => (isRejectionCode(t) ? REJECTION_NUMBERS[t] : undefined),
  print: (n) => byNumber.get(n)!,
  check: (n) => (byNumber.has(n) ? undefined : `unknown rejection number ${n}`),
});

export const RejectionCodec = struct('Rejection', {
  code: RejectionCodeCodec,
  instructionIndex: option(varuint),
  message: string(1024),
});
export type Rejection = Infer<typeof RejectionCodec>;

export function reject(code: RejectionCode, message?: string, instructionIndex?: number): Rejection {
  const r: Rejection = { code, message: message ?? REJECTION_CODES[code]?.[1] ?? code };
  if (instructionIndex !== undefined) r.instructionIndex = instructionIndex;
  return r;
}

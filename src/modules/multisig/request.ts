// Request helpers of the multisig routes: the multisig selector (id or alias, docs/multisig.md), the
// proposal id, instruction lists in their JSON form, and the refusal of bodies carrying a private key.

import { Type } from 'typebox';
import { isCodecError } from '../../codec/errors.js';
import { hashFromHex } from '../../crypto/hash.js';
import type { RouteDeps } from '../../gateway/deps.js';
import { gatewayError } from '../../gateway/errors.js';
import { resolveAccount } from '../../gateway/id-resolver.js';
import { ID_NAME_TEXT_BYTES_MAX } from '../../model/id-names.js';
import { canonicalAccountId } from '../../model/ids.js';
import { type Instruction, InstructionCodec } from '../../model/instructions.js';
import { toHex } from '../../util/hex.js';
import type { MultisigAccount } from './model.js';
import { MULTISIG_INSTRUCTIONS_MAX } from './model.js';
import type { MultisigPort } from './port.js';

const ACCOUNT_TEXT = Type.String({ minLength: 1, maxLength: 512 });
const HASH_TEXT = Type.String({ minLength: 64, maxLength: 64 });

export const SELECTOR_FIELDS = {
  multisig_account_id: Type.Optional(ACCOUNT_TEXT),
  multisig_account_alias: Type.Optional(Type.String({ minLength: 1, maxLength: ID_NAME_TEXT_BYTES_MAX })),
};
export const PROPOSAL_FIELDS = {
  proposal_id: Type.Optional(HASH_TEXT),
  instructions_hash: Type.Optional(HASH_TEXT),
};
export const SIGNING_FIELDS = {
  signer_account_id: ACCOUNT_TEXT,
  creation_time_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
  public_key_hex: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  signature_b64: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  /** Declared so that it reaches the handler, which refuses it (private_key_not_accepted). */
  private_key: Type.Optional(Type.Unknown()),
};
export const INSTRUCTIONS_FIELD = Type.Array(Type.Unknown(), {
  minItems: 1,
  maxItems: MULTISIG_INSTRUCTIONS_MAX,
});

export interface Selector {
  multisig_account_id?: string;
  multisig_account_alias?: string;
}

function bad(field: string, reason: string): never {
  throw gatewayError('bad_request', { location: 'body', field, reason });
}

const PRIVATE_KEY_DEPTH_MAX = 16;

/** Whether a JSON value holds a `private_key` member at any depth (bounded). */
function holdsPrivateKey(v: unknown, depth: number): boolean {
  if (depth > PRIVATE_KEY_DEPTH_MAX || typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) return v.some((x) => holdsPrivateKey(x, depth + 1));
  return Object.keys(v).some(
    (k) => k === 'private_key' || holdsPrivateKey((v as Record<string, unknown>)[k], depth + 1),
  );
}

/** Keys never leave the client. */
export function refusePrivateKey(body: unknown): void {
  if (holdsPrivateKey(body, 0)) throw gatewayError('private_key_not_accepted', { field: 'private_key' });
}

/** The multisig account a selector names: 400 for neither or both or a malformed text, 404 for none. */
export function resolveMultisig(d: RouteDeps, port: MultisigPort, s: Selector): MultisigAccount {
  const id = s.multisig_account_id;
  const alias = s.multisig_account_alias;
  if ((id === undefined) === (alias === undefined))
    bad('multisig_account_id', 'give exactly one of multisig_account_id and multisig_account_alias');
  let account: string | undefined;
  if (id !== undefined) {
    account = canonicalAccountId(id);
    if (account === undefined) bad('multisig_account_id', 'expected <public key>@<domain>');
  } else {
    const forms = d.ports.state.idNameForms('account');
    if (d.ports.state.idName('account', alias!) === undefined)
      bad('multisig_account_alias', `expected ${forms.length > 0 ? forms.join(' or ') : 'no name'}`);
    account = resolveAccount(d.ports.state, alias!);
  }
  const row = account === undefined ? undefined : port.multisig(account);
  if (row === undefined) throw gatewayError('not_found', { multisig_account: id ?? alias });
  return row;
}

/** The proposal id (= instructions hash) of a body: lower-case hex of a ledger hash. */
export function proposalIdOf(b: { proposal_id?: string; instructions_hash?: string }): string {
  const text = b.proposal_id ?? b.instructions_hash;
  if (text === undefined) bad('proposal_id', 'give proposal_id or instructions_hash');
  if (
    b.proposal_id !== undefined &&
    b.instructions_hash !== undefined &&
    b.proposal_id !== b.instructions_hash
  )
    bad('instructions_hash', 'proposal_id and instructions_hash differ');
  const bytes = hashFromHex(text);
  if (bytes === undefined) bad('proposal_id', 'expected 64 hex digits of a ledger hash');
  return toHex(bytes);
}

/** Instructions in their JSON form (docs/data-model.md §Instructions). */
export function instructionsOf(list: readonly unknown[]): Instruction[] {
  return list.map((j, i) => {
    try {
      return InstructionCodec.fromJson(j as never, `instructions[${i}]`);
    } catch (e) {
      if (isCodecError(e)) bad(`instructions[${i}]`, e.message);
      throw e;
    }
  });
}

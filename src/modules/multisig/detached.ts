// Detached signing: the first call returns the payload hash to sign and
// the creation time used; the second call repeats the body with `public_key_hex` and `signature_b64`,
// and the node assembles the signed transaction and submits it through the normal submit path
// (admission verifies the signature like any other). The node never holds or receives a private key.

import { encodeFrame } from '../../codec/frame.js';
import type { RouteDeps } from '../../gateway/deps.js';
import { gatewayError } from '../../gateway/errors.js';
import { resolveAccount } from '../../gateway/id-resolver.js';
import { refusalError } from '../../gateway/routes/transaction-refusal.js';
import { parseAccountId } from '../../model/ids.js';
import type { Instruction } from '../../model/instructions.js';
import { canonicalPublicKeyText } from '../../model/keys.js';
import { SCHEMA } from '../../model/schema.js';
import { payloadHash, SignedTransactionCodec, type TransactionPayload } from '../../model/transaction.js';

export interface SigningInput {
  signer_account_id: string;
  creation_time_ms?: number;
  public_key_hex?: string;
  signature_b64?: string;
}

export interface SigningOutcome {
  authority: string;
  creationTimeMs: number;
  submitted: boolean;
  signingMessageB64?: string;
  txHashHex?: string;
}

const SIGNATURE_BYTES = 64;
const HEX64 = /^[0-9a-fA-F]{64}$/;

function bad(field: string, reason: string): never {
  throw gatewayError('bad_request', { location: 'body', field, reason });
}

/** The signer's account id (an id or a name in place of one, model/id-names.ts). */
function signerOf(d: RouteDeps, text: string): string {
  const id = resolveAccount(d.ports.state, text);
  if (id === undefined) bad('signer_account_id', 'expected an account id or a bound name in place of one');
  return id;
}

/** `public_key_hex`: 64 hex digits of an Ed25519 key, or the key's text form (ed0120…). */
function keyText(text: string): string | undefined {
  return canonicalPublicKeyText(HEX64.test(text) ? `ed0120${text}` : text);
}

export function payloadOf(
  chainId: string,
  authority: string,
  creationTimeMs: number,
  instructions: Instruction[],
): TransactionPayload {
  return { chainId, authority, creationTimeMs, instructions, metadata: new Map() };
}

/** Step one (no signature): what to sign. Step two: assemble, submit, and report the hash. */
export async function signOrSubmit(
  d: RouteDeps,
  input: SigningInput,
  instructions: Instruction[],
): Promise<SigningOutcome> {
  const authority = signerOf(d, input.signer_account_id);
  const signed = input.signature_b64 !== undefined || input.public_key_hex !== undefined;
  if (signed && input.creation_time_ms === undefined)
    bad('creation_time_ms', 'repeat creation_time_ms from the first answer with the signature');
  const creationTimeMs = input.creation_time_ms ?? d.ports.node.nowMs();
  const payload = payloadOf(d.ports.node.chainId, authority, creationTimeMs, instructions);
  if (!signed) {
    const signingMessageB64 = Buffer.from(payloadHash(payload)).toString('base64');
    return { authority, creationTimeMs, submitted: false, signingMessageB64 };
  }
  if (input.signature_b64 === undefined) bad('signature_b64', 'public_key_hex needs signature_b64');
  if (input.public_key_hex === undefined) bad('public_key_hex', 'signature_b64 needs public_key_hex');
  const key = keyText(input.public_key_hex);
  if (key === undefined || key !== parseAccountId(authority)?.signatory)
    bad('public_key_hex', "expected the signer account's public key");
  const signature = Buffer.from(input.signature_b64, 'base64');
  if (signature.length !== SIGNATURE_BYTES) bad('signature_b64', 'expected a base64 Ed25519 signature');
  const bytes = encodeFrame(SCHEMA, SignedTransactionCodec, {
    payload,
    signature: new Uint8Array(signature),
  });
  const r = await d.ports.transactions.submit(bytes);
  if (!r.ok) throw refusalError(d, r);
  return { authority, creationTimeMs, submitted: true, txHashHex: r.hashHex };
}

// The bridge's signer component (private keys live in one signer component, never in HTTP handlers or bridge state).
// The bridge sees only the account id
// and a `sign` function over the 32-byte payload hash (docs/codec.md §8); the node builds it from the
// key file named by `iso20022.bridge_key_file`.

import type { Signer } from '../../../crypto/signer.js';
import { parseAccountId } from '../../../model/ids.js';

export interface BridgeSigner {
  /** The ledger account the bridge signs as (`<public key>@<domain>`). */
  readonly account: string;
  sign(message: Uint8Array): Uint8Array;
}

export class BridgeSignerError extends Error {
  override readonly name = 'BridgeSignerError';
}

/**
 * Binds a key to the bridge account. Refuses a key that is not the account's signatory, so a wrong
 * key file fails at start rather than as signature_invalid on every message.
 */
export function accountSigner(account: string, key: Signer & { publicKeyText(): string }): BridgeSigner {
  const parts = parseAccountId(account);
  if (parts === undefined) throw new BridgeSignerError(`bridge account "${account}" is not an account id`);
  if (parts.signatory !== key.publicKeyText()) {
    throw new BridgeSignerError(
      `the bridge key (${key.publicKeyText()}) is not the signatory of the bridge account ${account}`,
    );
  }
  return { account, sign: (message) => key.sign(message) };
}

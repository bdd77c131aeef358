// Key pairs for SDK users: generate, import and export in the text forms the CLI and node use.

import { Ed25519KeyPair } from '../crypto/signer.js';
import { accountId } from '../model/ids.js';
import { fromHex } from '../util/hex.js';

export { Ed25519KeyPair };

export function generateKeyPair(): Ed25519KeyPair {
  return Ed25519KeyPair.generate();
}

/** Imports a private key: its text form ('802620…') or 64 hex digits of the Ed25519 seed. */
export function importKeyPair(privateKey: string): Ed25519KeyPair {
  // fromHex, not Buffer: the SDK also runs in a browser bundle, which has no Buffer.
  const seed = /^[0-9a-fA-F]{64}$/.test(privateKey) ? fromHex(privateKey) : undefined;
  return seed === undefined ? Ed25519KeyPair.fromPrivateText(privateKey) : Ed25519KeyPair.fromSeed(seed);
}

/** The account id of a key in a domain: '<public key>@<domain>'. */
export function accountOf(key: Ed25519KeyPair, domain: string): string {
  return accountId(key.publicKeyText(), domain);
}

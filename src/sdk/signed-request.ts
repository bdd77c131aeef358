// Signing a signed app request (the gateway verifies in gateway/signed-request.ts):
// the four `x-ledger-*` headers for one request, from the account's signer. Browser-safe: SHA-256 from
// @noble/hashes, the nonce from the platform's random source.

import { sha256 } from '@noble/hashes/sha2';
import { randomBytes } from '../crypto/random.js';
import type { Signer } from '../crypto/signer.js';
import { requestText } from '../gateway/request-text.js';
import { toHex } from '../util/hex.js';

export interface SignRequestInput {
  method: string;
  /** Path and query exactly as they will be sent (`/v1/accounts/alice@bank?limit=5`). */
  url: string;
  body?: Uint8Array | string;
  account: string;
  signer: Signer;
  timestampMs?: number;
  nonce?: string;
}

function base64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function base64Url(bytes: Uint8Array): string {
  return base64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The headers `x-ledger-account`, `x-ledger-signature`, `x-ledger-timestamp-ms`, `x-ledger-nonce`. */
export function signRequest(input: SignRequestInput): Record<string, string> {
  const body =
    typeof input.body === 'string' ? new TextEncoder().encode(input.body) : (input.body ?? new Uint8Array());
  const timestampMs = input.timestampMs ?? Date.now();
  const nonce = input.nonce ?? base64Url(randomBytes(18));
  const text = requestText({
    method: input.method,
    url: input.url,
    bodySha256Hex: toHex(sha256(body)),
    timestampMs,
    nonce,
  });
  return {
    'x-ledger-account': input.account,
    'x-ledger-signature': base64(input.signer.sign(text)),
    'x-ledger-timestamp-ms': String(timestampMs),
    'x-ledger-nonce': nonce,
  };
}

// Signed app requests (app-families.md §1.2): the caller proves it holds an account's key without a
// transaction. Four headers: `x-ledger-account` (the account id, `<public key>@<domain>`),
// `x-ledger-signature` (base64 Ed25519 signature), `x-ledger-timestamp-ms`, `x-ledger-nonce`; the signed
// text is request-text.ts (METHOD, path, sorted query, body hash, timestamp, nonce). The key is the account id's signatory (an account's key is part of
// its id on this ledger). Checks, cheapest first, before the body is read where possible:
//   onRequest     a header missing -> 401 signature_missing; a timestamp outside ±maxAgeMs -> 401
//                 request_stale; malformed account, nonce or signature -> 403 request_signature_invalid
//   preParsing    the raw body is hashed as it streams to the parser (body-digest.ts)
//   preValidation the signature must verify -> else 403 request_signature_invalid; only then is the nonce
//                 recorded, and one seen before -> 409 nonce_reused (forged requests cannot burn nonces).
// Who the account may act as (a bridge participant, …) is for the route to decide with `account(req)`.

import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import { ed25519Verify } from '../crypto/ed25519.js';
import { parseAccountId } from '../model/ids.js';
import { parsePublicKey } from '../model/keys.js';
import { digestPayload } from './body-digest.js';
import { gatewayError } from './errors.js';
import { createNonceCache } from './nonce-cache.js';
import { REQUEST_NONCE, requestText } from './request-text.js';

export const ACCOUNT_HEADER = 'x-ledger-account';
export const SIGNATURE_HEADER = 'x-ledger-signature';
export const TIMESTAMP_HEADER = 'x-ledger-timestamp-ms';
export const NONCE_HEADER = 'x-ledger-nonce';
export const SIGNED_REQUEST_HEADERS: readonly string[] = [
  ACCOUNT_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  NONCE_HEADER,
];

/** What a route needs to authenticate its requests (operator-auth.ts has the same shape). */
export interface RequestAuth {
  onRequest(req: FastifyRequest): Promise<void>;
  preParsing(req: FastifyRequest, reply: FastifyReply, payload: RequestPayload): Promise<RequestPayload>;
  preValidation(req: FastifyRequest): Promise<void>;
}

export interface SignedRequests extends RequestAuth {
  /** The account that signed `req`, once preValidation has passed. */
  account(req: FastifyRequest): string | undefined;
}

export interface SignedRequestOptions {
  /** Largest difference between the request timestamp and node time (§1.2: 30 s either side). */
  maxAgeMs: number;
  /** Nonces remembered; beyond it the oldest are forgotten under a watermark (nonce-cache.ts). */
  noncesMax: number;
  now: () => number;
}

interface Pending {
  account: string;
  publicKey: Uint8Array;
  timestampMs: number;
  nonce: string;
  signature: Uint8Array;
  bodySha256Hex?: string;
  verified?: boolean;
}

const TIMESTAMP = /^[0-9]{1,15}$/;
const BASE64_SIGNATURE = /^[A-Za-z0-9+/]{86}==$/;
const EMPTY_SHA256_HEX = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function invalid(reason: string) {
  return gatewayError('request_signature_invalid', { reason });
}

export function createSignedRequests(opts: SignedRequestOptions): SignedRequests {
  const nonces = createNonceCache(opts.noncesMax, opts.maxAgeMs);
  const pending = new WeakMap<FastifyRequest, Pending>();

  function readHeaders(req: FastifyRequest): Pending {
    const missing = SIGNED_REQUEST_HEADERS.filter((h) => header(req, h) === undefined);
    if (missing.length > 0) throw gatewayError('signature_missing', { missing });
    const stamp = header(req, TIMESTAMP_HEADER)!;
    const timestampMs = TIMESTAMP.test(stamp) ? Number(stamp) : Number.NaN;
    if (!(Math.abs(opts.now() - timestampMs) <= opts.maxAgeMs))
      throw gatewayError('request_stale', { max_age_ms: opts.maxAgeMs });
    const account = header(req, ACCOUNT_HEADER)!;
    const key = parseAccountId(account)?.signatory;
    const publicKey = key === undefined ? undefined : parsePublicKey(key);
    if (publicKey === undefined || publicKey.algorithm !== 'ed25519') throw invalid('account');
    const nonce = header(req, NONCE_HEADER)!;
    if (!REQUEST_NONCE.test(nonce)) throw invalid('nonce_format');
    const sig = header(req, SIGNATURE_HEADER)!;
    if (!BASE64_SIGNATURE.test(sig)) throw invalid('signature_format');
    return {
      account,
      publicKey: publicKey.bytes,
      timestampMs,
      nonce,
      signature: new Uint8Array(Buffer.from(sig, 'base64')),
    };
  }

  return {
    async onRequest(req) {
      pending.set(req, readHeaders(req));
    },
    async preParsing(req, _reply, payload) {
      const p = pending.get(req);
      if (p === undefined) return payload;
      return digestPayload(payload, (hex) => {
        p.bodySha256Hex = hex;
      });
    },
    async preValidation(req) {
      const p = pending.get(req);
      if (p === undefined) throw gatewayError('signature_missing', { missing: SIGNED_REQUEST_HEADERS });
      const message = requestText({
        method: req.method,
        url: req.raw.url ?? req.url,
        bodySha256Hex: p.bodySha256Hex ?? EMPTY_SHA256_HEX,
        timestampMs: p.timestampMs,
        nonce: p.nonce,
      });
      if (!ed25519Verify(p.publicKey, message, p.signature)) throw invalid('signature');
      if (!nonces.checkAndAdd(`${p.account}:${p.nonce}`, p.timestampMs, opts.now()))
        throw gatewayError('nonce_reused');
      p.verified = true;
    },
    account(req) {
      const p = pending.get(req);
      return p?.verified === true ? p.account : undefined;
    },
  };
}

// Signed app requests: the caller proves it holds a registered account's key without a transaction. Four
// headers: `x-ledger-account` (the account id, `<public key>@<domain>`), `x-ledger-signature` (base64
// Ed25519 signature), `x-ledger-timestamp-ms`, `x-ledger-nonce`; the signed text is request-text.ts (METHOD,
// path, sorted query, body hash, timestamp, nonce). One rule for every family (docs/security.md "Signed app
// requests"); the node builds ONE verifier with ONE nonce store (signed-nonces.ts) and hands it to every
// family that takes signed requests. Checks, cheapest first, before the body is read where possible:
//   onRequest     a header missing -> 401 signature_missing; a timestamp more than the chain's clock drift
//                 (`maxClockDriftMs`) from node time, either way -> 401 request_stale; malformed account,
//                 nonce or signature -> 403 request_signature_invalid; an account that is not registered
//                 (or whose domain is not) -> 403 request_signer_unregistered
//   preParsing    the raw body is hashed as it streams to the parser (body-digest.ts)
//   preValidation the signature must verify against the account's signatory (the key in its id) -> else
//                 403 request_signature_invalid; only then is the nonce recorded under that account: one
//                 seen before -> 409 nonce_reused, the account's quota full -> 429 request_nonces_full
//                 (forged requests cannot burn nonces; one account cannot touch another's).
// Who the account may act as (a bridge participant, …) is for the route to decide with `account(req)`.
// The hooks themselves are the shared hook set of header-signed requests (signed-hooks.ts).

import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import { parseAccountId } from '../model/ids.js';
import { parsePublicKey } from '../model/keys.js';
import { gatewayError } from './errors.js';
import { REQUEST_NONCE, requestText } from './request-text.js';
import { header, type SignedParts, signedHooks, TIMESTAMP_TEXT } from './signed-hooks.js';
import type { SignedNonceStore } from './signed-nonces.js';

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

/** What a route needs to authenticate its requests (operator-auth.ts `OperatorAuth` extends it). */
export interface RequestAuth {
  onRequest(req: FastifyRequest): Promise<void>;
  preParsing(req: FastifyRequest, reply: FastifyReply, payload: RequestPayload): Promise<RequestPayload>;
  preValidation(req: FastifyRequest): Promise<void>;
}

export interface SignedRequests extends RequestAuth {
  /** The account that signed `req`, once preValidation has passed. */
  account(req: FastifyRequest): string | undefined;
}

/** What the verifier reads of the world state. */
export interface SignerPort {
  /** Whether `account` (canonical id) is a registered account whose domain exists. */
  registered(account: string): boolean;
  /** The chain's clock drift parameter (`maxClockDriftMs`): the timestamp window either side of node time. */
  clockDriftMs(): number;
}

export interface SignedRequestOptions {
  signers: SignerPort;
  /** The node's one store of signed-request nonces (signed-nonces.ts). */
  nonces: SignedNonceStore;
  now: () => number;
}

interface SignedRequestParts extends SignedParts {
  readonly account: string;
}

const BASE64_SIGNATURE = /^[A-Za-z0-9+/]{86}==$/;

function invalid(reason: string) {
  return gatewayError('request_signature_invalid', { reason });
}

export function createSignedRequests(opts: SignedRequestOptions): SignedRequests {
  const { nonces, signers } = opts;

  function read(req: FastifyRequest): SignedRequestParts {
    const missing = SIGNED_REQUEST_HEADERS.filter((h) => header(req, h) === undefined);
    if (missing.length > 0) throw gatewayError('signature_missing', { missing });
    const stamp = header(req, TIMESTAMP_HEADER)!;
    const timestampMs = TIMESTAMP_TEXT.test(stamp) ? Number(stamp) : Number.NaN;
    const driftMs = signers.clockDriftMs();
    if (!(Math.abs(opts.now() - timestampMs) <= driftMs))
      throw gatewayError('request_stale', { max_clock_drift_ms: driftMs });
    const account = header(req, ACCOUNT_HEADER)!;
    const key = parseAccountId(account)?.signatory;
    const publicKey = key === undefined ? undefined : parsePublicKey(key);
    if (publicKey === undefined || publicKey.algorithm !== 'ed25519') throw invalid('account');
    if (!signers.registered(account))
      throw gatewayError('request_signer_unregistered', { account: account.slice(0, 200) });
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

  const hooks = signedHooks<SignedRequestParts>({
    read,
    message: (req, p, bodySha256Hex) =>
      requestText({
        method: req.method,
        url: req.raw.url ?? req.url,
        bodySha256Hex,
        timestampMs: p.timestampMs,
        nonce: p.nonce,
      }),
    missing: () => gatewayError('signature_missing', { missing: SIGNED_REQUEST_HEADERS }),
    invalidSignature: () => invalid('signature'),
    accept(_req, p) {
      const seen = nonces.checkAndAdd(p.account, p.nonce, p.timestampMs, opts.now(), signers.clockDriftMs());
      if (seen === 'reused') throw gatewayError('nonce_reused');
      if (seen === 'full') throw gatewayError('request_nonces_full');
    },
  });
  return {
    onRequest: hooks.onRequest,
    preParsing: hooks.preParsing,
    preValidation: hooks.preValidation,
    account: (req) => hooks.verified(req)?.account,
  };
}

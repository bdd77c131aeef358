// The one hook set of a request signed in headers, shared by signed app requests (signed-request.ts) and
// signed operator requests (operator-auth.ts), which differ only in their headers, signed text and
// refusals:
//   onRequest     `read` parses the headers (missing or malformed -> its own refusal) before the body
//   preParsing    the raw body is hashed (SHA-256) as it streams to the parser (body-digest.ts)
//   preValidation the signature over `message` must verify against the header's key -> else
//                 `invalidSignature`; only then is `accept` called (nonce, watermark), so forged
//                 requests cannot burn nonces. A request that skipped onRequest is `missing`.
// A request without a body (a GET) is signed as the empty body.

import type { FastifyRequest } from 'fastify';
import { ed25519Verify } from '../crypto/ed25519.js';
import { digestPayload } from './body-digest.js';
import type { GatewayError } from './errors.js';
import type { RequestAuth } from './signed-request.js';

/** The SHA-256 of the empty body. */
export const EMPTY_SHA256_HEX = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
/** A millisecond timestamp header: decimal digits only (no sign, no exponent). */
export const TIMESTAMP_TEXT = /^[0-9]{1,15}$/;

/** A header's value, undefined when absent, empty or repeated. */
export function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** What the headers of a signed request give, once read. */
export interface SignedParts {
  readonly publicKey: Uint8Array;
  readonly timestampMs: number;
  readonly nonce: string;
  readonly signature: Uint8Array;
}

export interface SignedHookSpec<P extends SignedParts> {
  /** Reads and checks the headers; throws the refusal of a missing or malformed one. */
  read(req: FastifyRequest): P;
  /** The signed text of `req`. */
  message(req: FastifyRequest, p: P, bodySha256Hex: string): Uint8Array;
  /** The refusal of a request that reached preValidation without its headers read. */
  missing(): GatewayError;
  /** The refusal of a signature that does not verify. */
  invalidSignature(): GatewayError;
  /** After the signature verified: records the nonce (and whatever else); throws to refuse. */
  accept(req: FastifyRequest, p: P): void | Promise<void>;
}

export interface SignedHooks<P extends SignedParts> extends RequestAuth {
  /** The parts of `req` once preValidation has passed. */
  verified(req: FastifyRequest): P | undefined;
}

interface Pending<P> {
  parts: P;
  bodySha256Hex?: string;
  verified?: boolean;
}

export function signedHooks<P extends SignedParts>(spec: SignedHookSpec<P>): SignedHooks<P> {
  const pending = new WeakMap<FastifyRequest, Pending<P>>();
  return {
    async onRequest(req) {
      pending.set(req, { parts: spec.read(req) });
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
      if (p === undefined) throw spec.missing();
      const message = spec.message(req, p.parts, p.bodySha256Hex ?? EMPTY_SHA256_HEX);
      if (!ed25519Verify(p.parts.publicKey, message, p.parts.signature)) throw spec.invalidSignature();
      await spec.accept(req, p.parts);
      p.verified = true;
    },
    verified(req) {
      const p = pending.get(req);
      return p?.verified === true ? p.parts : undefined;
    },
  };
}

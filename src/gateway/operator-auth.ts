// Operator authentication by signed requests (layout in operator-message.ts).
// Checks run in this order, cheapest first, so unauthenticated clients cost little:
//   onRequest     no operators configured -> 403 operator_access_disabled; a header missing -> 401
//                 operator_auth_missing; malformed header, unknown key or timestamp outside ±maxAgeMs
//                 -> 401 operator_auth_invalid (before the body is read)
//   preParsing    the raw body is hashed (SHA-256) as it streams to the parser, within the body limit
//   preValidation the signature (over a text that names this node's chain id and key) must verify ->
//                 else 401 operator_auth_invalid; only then is the nonce recorded, and a nonce seen before
//                 -> 401 operator_replay (so forged requests cannot burn nonces).
// Across restarts: the newest timestamp the node has accepted is kept durably (`watermark`), and after a
// restart every request stamped at or before it is refused as a possible replay. Every request accepted
// before the restart is stamped at or before that mark, so none can be replayed after it; honest requests
// are stamped with the current time, which is later (unless a client's clock ran ahead of the node's, in
// which case it waits out at most the skew window).
// A GET's body is ignored by the server and signed as empty. The three hooks are the shared hook set of
// header-signed requests (signed-hooks.ts), as for signed app requests.
// Operator sessions (operator-sessions.ts): with a session verifier, a request carrying
// `Authorization: Bearer <token>` is authenticated by the session instead (in onRequest, before the body is
// read): an unknown, expired or revoked token -> 401 operator_session_unknown / _expired / _revoked, a
// malformed one -> 401 operator_auth_invalid (reason bearer_format). The gateway knows only the verifier
// port below; the node injects its session store (operator-sessions.ts). When an installed module opens
// sessions by other means than an operator key (`sessionsWithoutKeys`, its descriptor's
// `opensSessionsWithoutKeys`), a node without operator keys still opens its operator routes to session tokens.

import type { FastifyRequest } from 'fastify';
import { isKeyTextError, publicKeyFromText } from '../crypto/keys.js';
import { AssertionError } from '../util/assert.js';
import { fromHex, toHex } from '../util/hex.js';
import { type GatewayError, gatewayError, isGatewayError } from './errors.js';
import { createNonceCache } from './nonce-cache.js';
import {
  OPERATOR_HEADERS,
  OPERATOR_NONCE,
  type OperatorAudience,
  operatorMessage,
} from './operator-message.js';
import { header, type SignedParts, signedHooks, TIMESTAMP_TEXT } from './signed-hooks.js';
import type { RequestAuth } from './signed-request.js';

export interface OperatorAuthOptions {
  /** Public key texts (`ed0120…`) of the operators; empty disables operator routes (403). */
  operators: readonly string[];
  /** Largest allowed difference between the request timestamp and the node clock. */
  maxAgeMs?: number;
  /** Nonces remembered for replay detection. */
  noncesMax?: number;
  now: () => number;
  /** The node that requests must be signed for (operator-message.ts). */
  audience: OperatorAudience;
  /** The durable record of the newest accepted timestamp; omitted: kept in memory only. */
  watermark?: OperatorWatermark;
  /** Bearer session tokens (operator sign-in); omitted: only signed requests are accepted. */
  sessions?: OperatorSessionVerifier;
  /**
   * Session tokens open operator routes even with no operator keys (a module opens sessions by other
   * means than an operator key).
   */
  sessionsWithoutKeys?: boolean;
}

/** Who a valid session token stands for. */
export interface OperatorSessionRef {
  readonly sessionId: string;
  readonly operatorKey: string;
}

/** The port of operator sign-in sessions (operator-sessions.ts implements it). */
export interface OperatorSessionVerifier {
  /** The session of `token`, or the 401 error to answer (unknown, expired, revoked). */
  verify(token: string): OperatorSessionRef | GatewayError;
}

/** Session tokens are 32 random bytes in base64url (43 characters). */
const BEARER = /^bearer +([A-Za-z0-9_-]{43})$/i;

/**
 * The token of an `Authorization: Bearer` header: undefined without one (or with another scheme), a
 * GatewayError when it is malformed.
 */
export function bearerToken(req: FastifyRequest): string | GatewayError | undefined {
  const h = req.headers.authorization;
  if (typeof h !== 'string' || !/^bearer /i.test(h)) return undefined;
  const m = BEARER.exec(h.trim());
  return m === null ? gatewayError('operator_auth_invalid', { reason: 'bearer_format' }) : m[1]!;
}

/** Where the newest accepted request timestamp survives a restart (node/operator-watermark.ts). */
export interface OperatorWatermark {
  /** The mark saved by the previous run (−∞ when none). */
  readonly initialMs: number;
  /** Saves a newer mark durably before the request it comes from is served. */
  save(timestampMs: number): Promise<void>;
}

// Keep equal to the operator.* config defaults (src/config/schema.ts; checked by operator-auth.test.ts).
export const DEFAULT_OPERATOR_MAX_AGE_MS = 30_000;
export const DEFAULT_OPERATOR_NONCES_MAX = 10_000;

export interface OperatorAuth extends RequestAuth {
  readonly enabled: boolean;
}

interface OperatorParts extends SignedParts {
  readonly keyHex: string;
}

const HEADERS = OPERATOR_HEADERS;

function invalid(reason: string) {
  return gatewayError('operator_auth_invalid', { reason });
}

function parseOperators(texts: readonly string[]): Set<string> {
  const keys = new Set<string>();
  for (const text of texts) {
    const key = publicKeyFromText(text);
    if (isKeyTextError(key) || key.algorithm !== 'ed25519') {
      throw new AssertionError(`operator key is not an ed25519 public key text: ${text.slice(0, 80)}`);
    }
    keys.add(toHex(key.bytes));
  }
  return keys;
}

export function createOperatorAuth(opts: OperatorAuthOptions): OperatorAuth {
  const operators = parseOperators(opts.operators);
  const maxAgeMs = opts.maxAgeMs ?? DEFAULT_OPERATOR_MAX_AGE_MS;
  const watermark = opts.watermark;
  const nonces = createNonceCache(
    opts.noncesMax ?? DEFAULT_OPERATOR_NONCES_MAX,
    maxAgeMs,
    watermark?.initialMs ?? Number.NEGATIVE_INFINITY,
  );
  let savedMs = watermark?.initialMs ?? Number.NEGATIVE_INFINITY;
  const bySession = new WeakSet<FastifyRequest>();
  const sessions = opts.sessions;
  const open = operators.size > 0 || (sessions !== undefined && opts.sessionsWithoutKeys === true);

  function read(req: FastifyRequest): OperatorParts {
    const missing = HEADERS.filter((h) => header(req, h) === undefined);
    if (missing.length > 0) throw gatewayError('operator_auth_missing', { missing });
    const [keyText, stampText, nonce, sigText] = HEADERS.map((h) => header(req, h)!) as [
      string,
      string,
      string,
      string,
    ];
    if (!TIMESTAMP_TEXT.test(stampText)) throw invalid('timestamp_format');
    const timestampMs = Number(stampText);
    if (Math.abs(opts.now() - timestampMs) > maxAgeMs) throw invalid('timestamp_skew');
    if (!OPERATOR_NONCE.test(nonce)) throw invalid('nonce_format');
    const key = publicKeyFromText(keyText);
    if (isKeyTextError(key) || key.algorithm !== 'ed25519') throw invalid('key_format');
    const keyHex = toHex(key.bytes);
    if (!operators.has(keyHex)) throw invalid('unknown_key');
    const signature = fromHex(sigText, 64);
    if (signature === undefined) throw invalid('signature_format');
    return { keyHex, publicKey: key.bytes, timestampMs, nonce, signature };
  }

  const hooks = signedHooks<OperatorParts>({
    read,
    message: (req, p, bodySha256Hex) =>
      operatorMessage({
        ...opts.audience,
        method: req.method,
        url: req.raw.url ?? req.url,
        bodySha256Hex,
        timestampMs: p.timestampMs,
        nonce: p.nonce,
      }),
    missing: () => gatewayError('operator_auth_missing', { missing: HEADERS }),
    invalidSignature: () => invalid('signature'),
    async accept(_req, p) {
      if (!nonces.checkAndAdd(`${p.keyHex}:${p.nonce}`, p.timestampMs, opts.now())) {
        throw gatewayError('operator_replay');
      }
      if (watermark !== undefined && p.timestampMs > savedMs) {
        savedMs = p.timestampMs;
        await watermark.save(p.timestampMs);
      }
    },
  });

  return {
    enabled: open,
    async onRequest(req) {
      if (!open) throw gatewayError('operator_access_disabled');
      const token = sessions === undefined ? undefined : bearerToken(req);
      if (token !== undefined) {
        if (isGatewayError(token)) throw token;
        const session = sessions!.verify(token);
        if (isGatewayError(session)) throw session;
        bySession.add(req);
        return;
      }
      return hooks.onRequest(req);
    },
    // A request opened by a session has no headers read: its body passes through unhashed.
    preParsing: hooks.preParsing,
    async preValidation(req) {
      if (bySession.has(req)) return;
      return hooks.preValidation(req);
    },
  };
}

/** The auth of a node without operators: every operator route answers 403. */
export function disabledOperatorAuth(): OperatorAuth {
  return createOperatorAuth({ operators: [], now: Date.now, audience: { chainId: '', nodeKey: '' } });
}

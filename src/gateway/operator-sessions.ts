// Operator sign-in sessions (docs/operator.md "Sign-in sessions"): single-use challenges over the operator keys the node
// trusts, and short-lived bearer tokens. Per node and in memory only: a restart ends every session (and
// every open challenge), so operators sign in again; nothing here is replicated or written to disk.
// Tokens are 32 random bytes (base64url) and only their SHA-256 is kept, so the session table (and a heap
// dump of it) never holds a usable token. Limits:
// - challenges: at most `challengesPerClientMax` open per client address (429 rate_limited), and at most
//   `challengesMax` in all (expired ones are kept one more TTL to answer "expired", and dropped first when
//   the table is full). When the table is full of open challenges, the oldest challenge of the client
//   holding the most is dropped for a client holding fewer, so addresses flooding the unauthenticated
//   challenge route (each at its per-address cap) cannot lock the operators out; 503
//   operator_challenges_full only when no client holds more than the requester. A failed answer does not
//   burn the challenge (a forger cannot spoil the operator's sign-in); a successful one does.
// - sessions: at most `sessionsMax` active; a new session beyond it evicts the OLDEST active one (logged,
//   audited, its token then answers operator_session_revoked). Only holders of an operator key can open
//   sessions, so no outsider can evict anyone, and a script that forgets to sign out cannot lock the
//   operators out. Ended sessions are remembered (as many again) until one TTL after their expiry, so that
//   their tokens answer `expired` / `revoked` rather than `unknown`.
// - audit: the newest `auditMax` events (issued, revoked, evicted), readable by operators.

import { createHash, randomBytes } from 'node:crypto';
import { ed25519Verify } from '../crypto/ed25519.js';
import { isKeyTextError, publicKeyFromText, publicKeyToText } from '../crypto/keys.js';
import { AssertionError } from '../util/assert.js';
import { fromHex } from '../util/hex.js';
import type { GatewayError } from './errors.js';
import { gatewayError } from './errors.js';
import type { OperatorSessionRef, OperatorSessionVerifier } from './operator-auth.js';
import { challengeText } from './operator-challenge-text.js';
import type { OperatorAudience } from './operator-message.js';

export interface OperatorSessionsOptions {
  /** Operator public key texts (`operator.public_keys`). */
  operators: readonly string[];
  audience: OperatorAudience;
  challengeTtlMs: number;
  sessionTtlMs: number;
  sessionsMax: number;
  challengesMax: number;
  /** Open (unexpired, unused) challenges one client address may hold (429 rate_limited above). */
  challengesPerClientMax: number;
  auditMax: number;
  now(): number;
  /** One structured line per session event (issued, revoked, evicted). */
  log(entry: AuditEntry): void;
}

export interface SessionInfo {
  session_id: string;
  operator_key: string;
  created_at_ms: number;
  expires_at_ms: number;
}

export interface AuditEntry extends SessionInfo {
  event: 'issued' | 'revoked' | 'evicted';
  at_ms: number;
}

export interface Challenge {
  challenge_id: string;
  challenge: string;
  expires_at_ms: number;
}

export interface IssuedSession {
  token: string;
  session_id: string;
  expires_at_ms: number;
}

interface Pending {
  keyText: string;
  client: string;
  expiresAtMs: number;
  used: boolean;
}

interface Session {
  info: SessionInfo;
  ended?: 'revoked' | 'evicted';
}

export const TOKEN_BYTES = 32;

export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function canonicalKey(text: string): string | undefined {
  const key = publicKeyFromText(text);
  if (isKeyTextError(key) || key.algorithm !== 'ed25519') return undefined;
  return publicKeyToText(key);
}

function invalid(reason: string): GatewayError {
  return gatewayError('operator_auth_invalid', { reason });
}

export class OperatorSessions implements OperatorSessionVerifier {
  readonly #o: OperatorSessionsOptions;
  readonly #operators = new Set<string>();
  readonly #challenges = new Map<string, Pending>();
  /** token hash → session, in creation order (active and ended). */
  readonly #sessions = new Map<string, Session>();
  readonly #byId = new Map<string, string>();
  readonly #audit: AuditEntry[] = [];
  #evicted = 0;

  constructor(opts: OperatorSessionsOptions) {
    this.#o = opts;
    for (const text of opts.operators) {
      const key = canonicalKey(text);
      if (key === undefined) throw new AssertionError(`operator key is not an ed25519 key text: ${text}`);
      this.#operators.add(key);
    }
  }

  get enabled(): boolean {
    return this.#operators.size > 0;
  }

  /**
   * A new single-use challenge for `keyText`, which must be an operator key; `client` is the caller's
   * address key (gateway/rate-limit.ts `clientKey`), so that one client cannot fill the table for all.
   */
  challenge(keyText: string, client: string): Challenge | GatewayError {
    if (!this.enabled) return gatewayError('operator_access_disabled');
    const key = canonicalKey(keyText);
    if (key === undefined) return invalid('key_format');
    if (!this.#operators.has(key)) return invalid('unknown_key');
    const now = this.#o.now();
    this.#pruneChallenges(now, false);
    let mine = 0;
    for (const c of this.#challenges.values())
      if (c.client === client && !c.used && now <= c.expiresAtMs) mine++;
    if (mine >= this.#o.challengesPerClientMax) {
      const retry_after_s = Math.max(1, Math.ceil(this.#o.challengeTtlMs / 1000));
      const limit = this.#o.challengesPerClientMax;
      return gatewayError('rate_limited', { scope: 'operator_challenges', limit, retry_after_s });
    }
    if (this.#challenges.size >= this.#o.challengesMax) this.#pruneChallenges(now, true);
    if (this.#challenges.size >= this.#o.challengesMax) this.#evictFromLargest(client, mine, now);
    if (this.#challenges.size >= this.#o.challengesMax) {
      const first = this.#challenges.values().next().value as Pending;
      const retry_after_s = Math.max(1, Math.ceil((first.expiresAtMs - now) / 1000));
      return gatewayError('operator_challenges_full', { limit: this.#o.challengesMax, retry_after_s });
    }
    const id = randomBytes(16).toString('base64url');
    const expiresAtMs = now + this.#o.challengeTtlMs;
    this.#challenges.set(id, { keyText: key, client, expiresAtMs, used: false });
    const text = challengeText({ ...this.#o.audience, operatorKey: key, challengeId: id, expiresAtMs });
    return { challenge_id: id, challenge: text, expires_at_ms: expiresAtMs };
  }

  /** Opens a session for a signed challenge; the challenge is spent only when the signature verifies. */
  open(challengeId: string, keyText: string, signatureHex: string): IssuedSession | GatewayError {
    if (!this.enabled) return gatewayError('operator_access_disabled');
    const now = this.#o.now();
    const c = this.#challenges.get(challengeId);
    if (c === undefined) return gatewayError('operator_challenge_unknown');
    if (c.used) return gatewayError('operator_challenge_used');
    if (now > c.expiresAtMs)
      return gatewayError('operator_challenge_expired', { expired_at_ms: c.expiresAtMs });
    const key = canonicalKey(keyText);
    if (key === undefined) return invalid('key_format');
    if (key !== c.keyText) return invalid('key_mismatch');
    const signature = fromHex(signatureHex, 64);
    if (signature === undefined) return invalid('signature_format');
    const text = challengeText({
      ...this.#o.audience,
      operatorKey: key,
      challengeId,
      expiresAtMs: c.expiresAtMs,
    });
    const publicKey = publicKeyFromText(key);
    if (isKeyTextError(publicKey)) throw new AssertionError('a stored operator key no longer parses');
    if (!ed25519Verify(publicKey.bytes, new TextEncoder().encode(text), signature))
      return invalid('signature');
    c.used = true;
    return this.#issue(key, now);
  }

  /**
   * Opens a session for an operator authenticated another way (by a module, e.g. with a WebAuthn
   * credential): `subject` stands where an operator key would in the session list and audit
   * (`<means>:<id>`).
   */
  issueFor(subject: string): IssuedSession {
    return this.#issue(subject, this.#o.now());
  }

  verify(token: string): OperatorSessionRef | GatewayError {
    const s = this.#sessions.get(tokenHash(token));
    if (s === undefined) return gatewayError('operator_session_unknown');
    if (s.ended !== undefined) return gatewayError('operator_session_revoked', { reason: s.ended });
    if (this.#o.now() >= s.info.expires_at_ms)
      return gatewayError('operator_session_expired', { expired_at_ms: s.info.expires_at_ms });
    return { sessionId: s.info.session_id, operatorKey: s.info.operator_key };
  }

  /** Active sessions, oldest first. */
  list(): SessionInfo[] {
    const now = this.#o.now();
    this.#pruneSessions(now);
    return [...this.#sessions.values()]
      .filter((s) => s.ended === undefined && now < s.info.expires_at_ms)
      .map((s) => ({ ...s.info }));
  }

  /** Ends the active session `id`; false when there is none. */
  revoke(id: string): SessionInfo | undefined {
    const hash = this.#byId.get(id);
    const s = hash === undefined ? undefined : this.#sessions.get(hash);
    if (s === undefined || s.ended !== undefined || this.#o.now() >= s.info.expires_at_ms) return undefined;
    this.#end(s, 'revoked');
    return { ...s.info };
  }

  /** Ends the session a token opens (the caller's own). */
  revokeToken(token: string): SessionInfo | undefined {
    const s = this.#sessions.get(tokenHash(token));
    return s === undefined ? undefined : this.revoke(s.info.session_id);
  }

  /** The audit list, newest first. */
  audit(): AuditEntry[] {
    return [...this.#audit].reverse();
  }

  #issue(key: string, now: number): IssuedSession {
    this.#pruneSessions(now);
    const active = [...this.#sessions.values()].filter(
      (s) => s.ended === undefined && now < s.info.expires_at_ms,
    );
    if (active.length >= this.#o.sessionsMax) this.#end(active[0]!, 'evicted');
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const info: SessionInfo = {
      session_id: randomBytes(16).toString('base64url'),
      operator_key: key,
      created_at_ms: now,
      expires_at_ms: now + this.#o.sessionTtlMs,
    };
    const hash = tokenHash(token);
    this.#sessions.set(hash, { info });
    this.#byId.set(info.session_id, hash);
    this.#record('issued', info, now);
    return { token, session_id: info.session_id, expires_at_ms: info.expires_at_ms };
  }

  #end(s: Session, how: 'revoked' | 'evicted'): void {
    s.ended = how;
    this.#record(how, s.info, this.#o.now());
  }

  #record(event: AuditEntry['event'], info: SessionInfo, now: number): void {
    const entry: AuditEntry = { event, at_ms: now, ...info };
    this.#audit.push(entry);
    if (this.#audit.length > this.#o.auditMax) this.#audit.splice(0, this.#audit.length - this.#o.auditMax);
    this.#o.log(entry);
  }

  /**
   * The table is full of open challenges: frees a slot by dropping the OLDEST challenge of the client that
   * holds the most, when that client holds more than the requester (`mine`). Addresses flooding the route
   * thus take slots from one another, never from a client holding fewer (the operator asking for one);
   * the table is full for a requester only when no client holds more than it does.
   */
  #evictFromLargest(client: string, mine: number, now: number): void {
    const held = new Map<string, number>();
    for (const c of this.#challenges.values())
      if (!c.used && now <= c.expiresAtMs) held.set(c.client, (held.get(c.client) ?? 0) + 1);
    let largest: string | undefined;
    let most = mine;
    for (const [who, n] of held)
      if (who !== client && n > most) {
        largest = who;
        most = n;
      }
    if (largest === undefined) return;
    for (const [id, c] of this.#challenges)
      if (c.client === largest && !c.used && now <= c.expiresAtMs) {
        this.#challenges.delete(id);
        this.#evicted++;
        return;
      }
  }

  /** Challenges dropped so far to make room for a client holding fewer. */
  get challengesEvicted(): number {
    return this.#evicted;
  }

  /** Drops challenges one TTL past expiry (`all`: every expired or used one). */
  #pruneChallenges(now: number, all: boolean): void {
    const keepMs = all ? 0 : this.#o.challengeTtlMs;
    for (const [id, c] of this.#challenges) {
      if (now > c.expiresAtMs + keepMs || (all && c.used)) this.#challenges.delete(id);
    }
  }

  /** Drops sessions one TTL past expiry, and the oldest ended ones beyond `sessionsMax`. */
  #pruneSessions(now: number): void {
    let ended = 0;
    for (const s of this.#sessions.values())
      if (s.ended !== undefined || now >= s.info.expires_at_ms) ended++;
    for (const [hash, s] of this.#sessions) {
      const over = now >= s.info.expires_at_ms + this.#o.sessionTtlMs;
      const done = s.ended !== undefined || now >= s.info.expires_at_ms;
      if (over || (done && ended > this.#o.sessionsMax)) {
        this.#sessions.delete(hash);
        this.#byId.delete(s.info.session_id);
        if (done) ended--;
      }
    }
  }
}

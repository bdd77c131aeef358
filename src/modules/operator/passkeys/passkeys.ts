// Operator passkeys (docs/operator.md "Passkeys"): WebAuthn registration and sign-in that end in the same
// operator session tokens as the Ed25519 sign-in (../sessions.ts). The WebAuthn checks themselves (client
// data, origin, relying-party id hash, attestation, signature) are @simplewebauthn/server's; this file
// keeps the rules of the node around them:
// - challenges are random, single-use and short-lived (`operator.passkey_challenge_ttl_ms`, 60 s): a
//   verify names its challenge through the signed client data, so an answer is bound to it. A failed
//   answer does not spend the challenge (a forger cannot spoil the operator's ceremony), a verified one
//   does; a spent challenge answers operator_challenge_used, so a replayed response is refused.
// - the FIRST credential registers only with the bootstrap secret of the node's configuration
//   (`operator.passkey_bootstrap_secret`), and only while the node holds none; every later one needs an
//   operator session (`Authorization: Bearer`), and the secret alone no longer adds anything.
// - signature counters: a sign-in whose counter does not exceed the stored one (when either is non-zero)
//   is refused (operator_passkey_replay); the new counter is durable before the session is issued.
// - limits: `operator.passkey_credentials_max` credentials (409 above), `operator.passkey_challenges_max`
//   pending challenges in all (503) and `operator.session_client_challenges_max` per client address (429).
// Per node: the credentials live in this node's data folder (store.ts), the challenges in memory.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { GatewayError } from '../../../gateway/errors.js';
import { gatewayError, isGatewayError } from '../../../gateway/errors.js';
import type { IssuedSession, OperatorSessions } from '../../../gateway/operator-sessions.js';
import { passkeyError } from '../gateway-errors.js';
import type { PasskeyRecord, PasskeyStore } from './store.js';

/** COSE algorithms offered at registration: EdDSA, ES256, RS256. */
const ALGORITHMS = [-8, -7, -257];

export interface OperatorPasskeysOptions {
  rpId: string;
  rpName: string;
  /** Origins a ceremony may come from (`https://ops.example:8443`). */
  origins: readonly string[];
  /** Registers the first credential; empty: no first credential can be registered. */
  bootstrapSecret: string;
  challengeTtlMs: number;
  challengesMax: number;
  challengesPerClientMax: number;
  credentialsMax: number;
  store: PasskeyStore;
  sessions: Pick<OperatorSessions, 'issueFor' | 'verify'>;
  now(): number;
  /** One structured line per registration and sign-in (never a secret nor a token). */
  log(entry: { event: 'registered' | 'signed_in'; credential_id: string; label: string }): void;
}

/** What a route knows of its caller. */
export interface Caller {
  /** The caller's address key (gateway/rate-limit.ts `clientKey`). */
  client: string;
  /** The `Authorization: Bearer` token: undefined without one, an error when malformed. */
  token: string | GatewayError | undefined;
}

interface Pending {
  kind: 'registration' | 'login';
  /** A registration opened with the bootstrap secret (valid only while no credential exists). */
  bootstrap: boolean;
  label: string;
  client: string;
  expiresAtMs: number;
  used: boolean;
}

export interface PasskeyInfo {
  credential_id: string;
  label: string;
  created_at_ms: number;
  last_used_at_ms: number | null;
}

// biome-ignore lint/suspicious/noExplicitAny: the WebAuthn JSON shapes are checked by the route schema and the library.
type WebAuthnJson = any;

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();

function invalid(reason: string): GatewayError {
  return passkeyError('operator_passkey_invalid', { reason: reason.slice(0, 200) });
}

type WebAuthnLibrary = typeof import('@simplewebauthn/server') &
  typeof import('@simplewebauthn/server/helpers');
let library: Promise<WebAuthnLibrary> | undefined;
/**
 * @simplewebauthn/server, loaded at the first ceremony rather than at import: it and its ASN.1 and
 * certificate dependencies are ~300 modules and ~0.5 s of CPU, which every node start paid whether or not
 * its operator ever uses a passkey.
 */
function webauthn(): Promise<WebAuthnLibrary> {
  library ??= Promise.all([import('@simplewebauthn/server'), import('@simplewebauthn/server/helpers')]).then(
    ([server, helpers]) => ({ ...server, ...helpers }),
  );
  return library;
}

/** The challenge a response's client data names, or undefined when it names none. */
function clientChallenge(
  { isoBase64URL }: Pick<WebAuthnLibrary, 'isoBase64URL'>,
  response: WebAuthnJson,
): string | undefined {
  try {
    const text = isoBase64URL.toUTF8String(String(response?.response?.clientDataJSON ?? ''));
    const challenge = (JSON.parse(text) as { challenge?: unknown }).challenge;
    return typeof challenge === 'string' && challenge.length > 0 ? challenge : undefined;
  } catch {
    return undefined;
  }
}

export class OperatorPasskeys {
  readonly #o: OperatorPasskeysOptions;
  readonly #pending = new Map<string, Pending>();

  constructor(opts: OperatorPasskeysOptions) {
    this.#o = opts;
  }

  get count(): number {
    return this.#o.store.list().length;
  }

  list(): PasskeyInfo[] {
    return this.#o.store.list().map((r) => ({
      credential_id: r.id,
      label: r.label,
      created_at_ms: r.created_at_ms,
      last_used_at_ms: r.last_used_at_ms,
    }));
  }

  /** Creation options for a new credential; `bootstrapSecret` only for the node's first one. */
  async registrationOptions(caller: Caller, bootstrapSecret: string | undefined, label: string) {
    const auth = this.#authorize(caller, bootstrapSecret === undefined ? undefined : bootstrapSecret);
    if (isGatewayError(auth)) return auth;
    const slot = this.#reserve(caller.client);
    if (slot !== undefined) return slot;
    const { generateRegistrationOptions } = await webauthn();
    const options = await generateRegistrationOptions({
      rpName: this.#o.rpName,
      rpID: this.#o.rpId,
      userName: label,
      userDisplayName: label,
      timeout: this.#o.challengeTtlMs,
      attestationType: 'none',
      excludeCredentials: this.#o.store.list().map((r) => ({ id: r.id, transports: r.transports })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      supportedAlgorithmIDs: ALGORITHMS,
    });
    this.#add(options.challenge, { kind: 'registration', bootstrap: auth.bootstrap, label, caller });
    return options;
  }

  /** Verifies a new credential's attestation and stores it durably. */
  async registrationVerify(caller: Caller, response: WebAuthnJson): Promise<PasskeyInfo | GatewayError> {
    const lib = await webauthn();
    const taken = this.#take(lib, response, 'registration');
    if (isGatewayError(taken)) return taken;
    const [challenge, p] = taken;
    const fail = (e: GatewayError) => {
      p.used = false;
      return e;
    };
    // The grant is checked again: a bootstrap challenge is void once a credential exists, a session may
    // have ended since the options were given.
    const auth = this.#authorize(caller, p.bootstrap ? this.#o.bootstrapSecret : undefined, p.bootstrap);
    if (isGatewayError(auth)) return fail(auth);
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await lib.verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: [...this.#o.origins],
        expectedRPID: this.#o.rpId,
        requireUserVerification: false,
        supportedAlgorithmIDs: ALGORITHMS,
      });
    } catch (e) {
      return fail(invalid((e as Error).message));
    }
    if (!verified.verified) return fail(invalid('attestation'));
    const { credential } = verified.registrationInfo;
    if (this.#o.store.get(credential.id) !== undefined) return fail(invalid('credential_registered'));
    const full = this.#full();
    if (full !== undefined) return fail(full);
    const rec: PasskeyRecord = {
      id: credential.id,
      public_key: lib.isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: [...(credential.transports ?? [])],
      label: p.label,
      created_at_ms: this.#o.now(),
      last_used_at_ms: null,
    };
    await this.#o.store.put(rec);
    this.#o.log({ event: 'registered', credential_id: rec.id, label: rec.label });
    return {
      credential_id: rec.id,
      label: rec.label,
      created_at_ms: rec.created_at_ms,
      last_used_at_ms: null,
    };
  }

  /** Request options for signing in with any credential of this node. */
  async loginOptions(caller: Caller) {
    const slot = this.#reserve(caller.client);
    if (slot !== undefined) return slot;
    const { generateAuthenticationOptions } = await webauthn();
    const options = await generateAuthenticationOptions({
      rpID: this.#o.rpId,
      allowCredentials: this.#o.store.list().map((r) => ({ id: r.id, transports: r.transports })),
      timeout: this.#o.challengeTtlMs,
      userVerification: 'preferred',
    });
    this.#add(options.challenge, { kind: 'login', bootstrap: false, label: '', caller });
    return options;
  }

  /** Verifies an assertion, checks and advances its counter durably, and opens an operator session. */
  async loginVerify(response: WebAuthnJson): Promise<IssuedSession | GatewayError> {
    const lib = await webauthn();
    const taken = this.#take(lib, response, 'login');
    if (isGatewayError(taken)) return taken;
    const [challenge, p] = taken;
    const fail = (e: GatewayError) => {
      p.used = false;
      return e;
    };
    const rec = this.#o.store.get(String(response?.id ?? ''));
    if (rec === undefined) return fail(passkeyError('operator_passkey_unknown'));
    let counter: number;
    try {
      const authData = lib.isoBase64URL.toBuffer(String(response?.response?.authenticatorData ?? ''));
      counter = lib.parseAuthenticatorData(authData).counter;
    } catch (e) {
      return fail(invalid((e as Error).message));
    }
    if ((counter > 0 || rec.counter > 0) && counter <= rec.counter)
      return fail(passkeyError('operator_passkey_replay', { counter, stored_counter: rec.counter }));
    let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verified = await lib.verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: [...this.#o.origins],
        expectedRPID: this.#o.rpId,
        credential: {
          id: rec.id,
          publicKey: lib.isoBase64URL.toBuffer(rec.public_key),
          counter: rec.counter,
          transports: rec.transports as never,
        },
        requireUserVerification: false,
      });
    } catch (e) {
      return fail(invalid((e as Error).message));
    }
    if (!verified.verified) return fail(invalid('signature'));
    await this.#o.store.put({
      ...rec,
      counter: verified.authenticationInfo.newCounter,
      last_used_at_ms: this.#o.now(),
    });
    this.#o.log({ event: 'signed_in', credential_id: rec.id, label: rec.label });
    return this.#o.sessions.issueFor(`passkey:${rec.id}`);
  }

  /**
   * Who may register: with no credential yet, the bootstrap secret (and nothing else); afterwards an
   * operator session. `bootstrapOnly`: a bootstrap challenge being answered (void once one exists).
   */
  #authorize(caller: Caller, secret: string | undefined, bootstrapOnly = false) {
    if (this.count === 0 || bootstrapOnly) {
      if (this.count > 0) return passkeyError('operator_passkey_bootstrap', { reason: 'already_registered' });
      if (this.#o.bootstrapSecret === '')
        return passkeyError('operator_passkey_bootstrap', { reason: 'not_configured' });
      if (secret === undefined) return passkeyError('operator_passkey_bootstrap', { reason: 'missing' });
      if (!timingSafeEqual(sha256(secret), sha256(this.#o.bootstrapSecret)))
        return passkeyError('operator_passkey_bootstrap', { reason: 'wrong' });
      return { bootstrap: true };
    }
    const full = this.#full();
    if (full !== undefined) return full;
    if (caller.token === undefined) return passkeyError('operator_passkey_session_required');
    if (isGatewayError(caller.token)) return caller.token;
    const session = this.#o.sessions.verify(caller.token);
    if (isGatewayError(session)) return session;
    return { bootstrap: false };
  }

  #full(): GatewayError | undefined {
    return this.count >= this.#o.credentialsMax
      ? passkeyError('operator_passkeys_full', { limit: this.#o.credentialsMax })
      : undefined;
  }

  /** The pending challenge a response names, marked used; or why it cannot be answered. */
  #take(
    lib: WebAuthnLibrary,
    response: WebAuthnJson,
    kind: Pending['kind'],
  ): [string, Pending] | GatewayError {
    const challenge = clientChallenge(lib, response);
    const p = challenge === undefined ? undefined : this.#pending.get(challenge);
    if (p === undefined || p.kind !== kind) return gatewayError('operator_challenge_unknown');
    if (p.used) return gatewayError('operator_challenge_used');
    if (this.#o.now() > p.expiresAtMs)
      return gatewayError('operator_challenge_expired', { expired_at_ms: p.expiresAtMs });
    // Taken now, so that two concurrent answers cannot both pass; given back if this one fails.
    p.used = true;
    return [challenge!, p];
  }

  /** Room for one more challenge of `client`, or the 429/503 to answer. */
  #reserve(client: string): GatewayError | undefined {
    const now = this.#o.now();
    // Expired challenges are kept one more TTL (to answer "expired"), used ones are dropped when full.
    for (const [id, p] of this.#pending)
      if (now > p.expiresAtMs + this.#o.challengeTtlMs) this.#pending.delete(id);
    let mine = 0;
    for (const p of this.#pending.values())
      if (p.client === client && !p.used && now <= p.expiresAtMs) mine++;
    if (mine >= this.#o.challengesPerClientMax) {
      const retry_after_s = Math.max(1, Math.ceil(this.#o.challengeTtlMs / 1000));
      return gatewayError('rate_limited', {
        scope: 'operator_passkey_challenges',
        limit: this.#o.challengesPerClientMax,
        retry_after_s,
      });
    }
    if (this.#pending.size >= this.#o.challengesMax)
      for (const [id, p] of this.#pending) if (p.used || now > p.expiresAtMs) this.#pending.delete(id);
    if (this.#pending.size >= this.#o.challengesMax) {
      const first = this.#pending.values().next().value as Pending;
      const retry_after_s = Math.max(1, Math.ceil((first.expiresAtMs - now) / 1000));
      return gatewayError('operator_challenges_full', { limit: this.#o.challengesMax, retry_after_s });
    }
    return undefined;
  }

  #add(challenge: string, p: { kind: Pending['kind']; bootstrap: boolean; label: string; caller: Caller }) {
    const expiresAtMs = this.#o.now() + this.#o.challengeTtlMs;
    this.#pending.set(challenge, {
      kind: p.kind,
      bootstrap: p.bootstrap,
      label: p.label,
      client: p.caller.client,
      expiresAtMs,
      used: false,
    });
  }
}

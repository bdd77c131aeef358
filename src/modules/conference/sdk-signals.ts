// Encrypted conference signalling for SDK users (docs/conference.md "Signalling"): seal and open
// envelopes (signal-envelope.ts, @noble in Node and in the browser), the host's
// publishOffers, a participant's fetchOffer and JoinConference carrying its sealed answer, and the
// host's pollSignals / watchSignals (SSE) to receive answers. Reached through `ToranaClient`.

import type { Signer } from '../../crypto/signer.js';
import type { Instruction } from '../../model/instructions.js';
import { ToranaTransportError } from '../../sdk/errors.js';
import type { Http, HttpRequest } from '../../sdk/http.js';
import { signRequest } from '../../sdk/signed-request.js';
import { sseStream } from '../../sdk/sse.js';
import { conferenceInstructions } from './sdk-instructions.js';
import {
  openSignal as openEnvelope,
  type SignalContext,
  type SignalKeyPair,
  sealSignal as sealEnvelope,
} from './signal-envelope.js';

export type { SignalContext, SignalKeyPair } from './signal-envelope.js';

/** A signal as the node serves it (`SignalView` of signal-routes.ts). */
export interface Signal {
  id: number;
  callId: string;
  kind: 'offer' | 'answer';
  from: string;
  to: string;
  /** Envelope v1, base64. */
  envelope: string;
  atMs: number;
  expiresAtMs: number;
  height?: number;
  transactionHash?: string;
}

/** What the signalling calls need from a client: its transport, account and keys. */
export interface SignalClient {
  http: Http;
  account: string;
  signer: Signer;
  /** The account's Ed25519 key pair in libsodium's layout: seed ‖ public key, to open envelopes sent to it. */
  keyPair: SignalKeyPair;
}

const utf8 = new TextEncoder();

function base64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function unbase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

/**
 * Signs `plaintext` (text is UTF-8) as `ctx.from` with `sender` and seals it to `ctx.to`; throws
 * ToranaTransportError with the envelope code.
 */
export async function sealSignal(
  ctx: SignalContext,
  plaintext: string | Uint8Array,
  sender: Signer,
): Promise<Uint8Array> {
  const bytes = typeof plaintext === 'string' ? utf8.encode(plaintext) : plaintext;
  const r = await sealEnvelope(ctx, bytes, sender);
  if (!r.ok) throw new ToranaTransportError(`sealSignal: ${r.code}`);
  return r.envelope;
}

/**
 * Opens an envelope (bytes or base64) sent to `keyPair` for exactly `ctx` and signed by `ctx.from`; throws
 * when it does not open or the signature does not verify.
 */
export async function openSignal(
  ctx: SignalContext,
  keyPair: SignalKeyPair,
  envelope: Uint8Array | string,
): Promise<Uint8Array> {
  const bytes = typeof envelope === 'string' ? unbase64(envelope) : envelope;
  const r = await openEnvelope(ctx, keyPair, bytes);
  if (!r.ok) throw new ToranaTransportError(`openSignal: ${r.code}`);
  return r.plaintext;
}

function signed(c: SignalClient, req: HttpRequest): HttpRequest {
  const u = new URL(c.http.url(req.path, req.query));
  const headers = signRequest({
    method: req.method,
    url: `${u.pathname}${u.search}`,
    ...(req.body === undefined ? {} : { body: req.body }),
    account: c.account,
    signer: c.signer,
  });
  return { ...req, headers: { ...req.headers, ...headers } };
}

const callPath = (callId: string) => `/v1/conference/calls/${encodeURIComponent(callId)}`;

/** The host seals one offer per participant (an SDP text each) and posts them. */
export async function publishOffers(
  c: SignalClient,
  callId: string,
  offers: ReadonlyArray<{ to: string; description: string }>,
): Promise<Signal[]> {
  const sealed = await Promise.all(
    offers.map(async (o) => ({
      to: o.to,
      envelope: base64(
        await sealSignal({ callId, kind: 'offer', from: c.account, to: o.to }, o.description, c.signer),
      ),
    })),
  );
  const body = JSON.stringify({ offers: sealed });
  const req = {
    method: 'POST' as const,
    path: `${callPath(callId)}/offers`,
    body,
    contentType: 'application/json',
  };
  return (await c.http.json<{ items: Signal[] }>(signed(c, req))).items;
}

/** A participant fetches its current offer from the host and opens it. */
export async function fetchOffer(
  c: SignalClient,
  callId: string,
): Promise<{ description: string; signal: Signal }> {
  const path = `${callPath(callId)}/offers/${encodeURIComponent(c.account)}`;
  const signal = await c.http.json<Signal>(signed(c, { method: 'GET', path }));
  const ctx: SignalContext = { callId, kind: 'offer', from: signal.from, to: c.account };
  const plain = await openSignal(ctx, c.keyPair, signal.envelope);
  return { description: new TextDecoder().decode(plain), signal };
}

/**
 * The JoinConference instruction of a transparent call carrying the participant's answer sealed to the
 * host. Add it to a transaction of the participant's account.
 */
export async function joinWithAnswer(
  c: Pick<SignalClient, 'account' | 'signer'>,
  callId: string,
  host: string,
  description: string,
): Promise<Instruction> {
  const answer = await sealSignal(
    { callId, kind: 'answer', from: c.account, to: host },
    description,
    c.signer,
  );
  return conferenceInstructions.joinConference(callId, { answer });
}

/** Opens an answer signal addressed to this client (the host). */
export async function openAnswer(c: SignalClient, signal: Signal): Promise<string> {
  const ctx: SignalContext = { callId: signal.callId, kind: 'answer', from: signal.from, to: c.account };
  return new TextDecoder().decode(await openSignal(ctx, c.keyPair, signal.envelope));
}

/** One page of signals after `after` (0: from the start); poll again with the returned cursor. */
export async function pollSignals(
  c: SignalClient,
  callId: string,
  after = 0,
): Promise<{ items: Signal[]; cursor: number }> {
  const req: HttpRequest = { method: 'GET', path: `${callPath(callId)}/signals`, query: { after } };
  return c.http.json(signed(c, req));
}

/** Signals as they arrive (SSE), stored ones first; resumes after `since` and after dropped connections. */
export async function* watchSignals(
  c: SignalClient,
  callId: string,
  o: { since?: number; signal?: AbortSignal } = {},
): AsyncGenerator<Signal> {
  const path = `${callPath(callId)}/signals/stream`;
  const stream = sseStream(c.http, {
    path,
    headers: () => signed(c, { method: 'GET', path }).headers ?? {},
    ...(o.since === undefined ? {} : { lastEventId: o.since }),
    ...(o.signal ? { signal: o.signal } : {}),
  });
  for await (const m of stream) {
    if (m.event !== 'offer' && m.event !== 'answer') continue;
    yield JSON.parse(m.data) as Signal;
  }
}

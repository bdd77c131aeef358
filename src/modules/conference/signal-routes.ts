// The conference signalling routes (docs/conference.md "Signalling"):
// one route table, registered by family.ts when `conference.enabled` (with `app_api.enabled`).
// Every route takes a signed app request (gateway/signed-request.ts); the node
// stores and relays envelopes it cannot open (signal-envelope.ts).
//
//   POST /v1/conference/calls/{call_id}/offers                  the host posts encrypted offers
//   GET  /v1/conference/calls/{call_id}/offers/{participant}    the participant (or host) fetches one
//   GET  /v1/conference/calls/{call_id}/signals                 offers and committed answers after a cursor
//   GET  /v1/conference/calls/{call_id}/signals/stream          the same as server-sent events
//
// Who sees what: the host sees every signal of its call; any other signer sees the signals it sent or
// that are addressed to it.

import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { type ErrorRegistry, gatewayError } from '../../gateway/errors.js';
import { defineRoute, type RouteDef } from '../../gateway/route-table.js';
import type { SignedRequests } from '../../gateway/signed-request.js';
import { serveSse } from '../../gateway/sse.js';
import { lastEventIdOf, type StreamEvent } from '../../gateway/sse-frame.js';
import type { ConferenceCall } from './model.js';
import { parseCallId } from './model.js';
import type { PostOutcome, SignalBox, SignalRecord } from './signal-box.js';
import { accountEd25519Key, SIGNAL_ENVELOPE_OVERHEAD, SIGNAL_ENVELOPE_VERSION } from './signal-envelope.js';

/** The committed calls, as the signalling routes need them (node/ adapts the world state). */
export interface SignalCallPort {
  call(id: string): Pick<ConferenceCall, 'host' | 'status'> | undefined;
  /** Whether the account is registered: offers go to registered accounts only. */
  accountExists(id: string): boolean;
  /**
   * A name given in place of an account id (docs/app-api.md "Names in place of ids"), read at the committed
   * height: the detail field a 404 names it by and the account it names; undefined when `text` has no
   * name's form (model/id-names.ts).
   */
  accountName(text: string): { field: string; id: string | undefined } | undefined;
}

export interface SignalRouteOptions {
  box: SignalBox;
  calls: SignalCallPort;
  auth: SignedRequests;
  /** The node's registry: the conference_signal_* codes are registered at composition (ledger-errors.ts). */
  errors: ErrorRegistry;
  /** Largest POST body (`conference.signal_body_bytes_max`). */
  bodyBytesMax: number;
  /** Most offers in one POST. */
  offersPerRequestMax: number;
  /** Default and largest page of the polling route. */
  pageMax: number;
}

const TAGS = ['conference'];
const AUTH_NOTE =
  'A signed app request (headers x-ledger-account, x-ledger-signature, ' +
  'x-ledger-timestamp-ms, x-ledger-nonce). Envelopes are opaque to the node (docs/conference.md "Signalling").';
const BASE64 = '^[A-Za-z0-9+/]*={0,2}$';

const CallParams = Type.Object(
  { call_id: Type.String({ minLength: 3, maxLength: 512, description: '<domain>:<call name>' }) },
  { additionalProperties: false },
);
const OfferParams = Type.Object(
  {
    call_id: CallParams.properties.call_id,
    participant: Type.String({ minLength: 1, maxLength: 512, description: 'account id' }),
  },
  { additionalProperties: false },
);

export const SignalView = Type.Object(
  {
    id: Type.Integer({ description: 'increasing id; the SSE id and the polling cursor' }),
    callId: Type.String(),
    kind: Type.Union([Type.Literal('offer'), Type.Literal('answer')]),
    from: Type.String({ description: 'sender account (the host for offers)' }),
    to: Type.String({ description: 'recipient account (the host for answers)' }),
    envelope: Type.String({ description: 'signalling envelope v1, base64' }),
    atMs: Type.Integer(),
    expiresAtMs: Type.Integer(),
    height: Type.Optional(Type.Integer({ description: 'answers: block of the JoinConference' })),
    transactionHash: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

function signalJson(r: SignalRecord) {
  return {
    id: r.id,
    callId: r.callId,
    kind: r.kind,
    from: r.from,
    to: r.to,
    envelope: Buffer.from(r.envelope).toString('base64'),
    atMs: r.atMs,
    expiresAtMs: r.expiresAtMs,
    ...(r.height === undefined ? {} : { height: r.height }),
    ...(r.transactionHash === undefined ? {} : { transactionHash: r.transactionHash }),
  };
}

function signerOf(auth: SignedRequests, req: FastifyRequest): string {
  const account = auth.account(req);
  // The auth hooks ran and passed: an unverified request here is a wiring bug, not a client error.
  if (account === undefined) throw new Error('signal route reached without a verified signed request');
  return account;
}

function callOf(o: SignalRouteOptions, text: string): { id: string; host: string; ended: boolean } {
  if (parseCallId(text) === undefined)
    throw gatewayError('bad_request', {
      location: 'params',
      id: text.slice(0, 128),
      expected: 'domain:call',
    });
  const call = o.calls.call(text);
  if (call === undefined) throw o.errors.create('conference_not_found', { call: text });
  return { id: text, host: call.host, ended: call.status.kind === 'Ended' };
}

function envelopeOf(o: SignalRouteOptions, text: string, index: number): Uint8Array {
  const bytes = new Uint8Array(Buffer.from(text, 'base64'));
  if (bytes.length > o.box.limits.envelopeBytesMax)
    throw o.errors.create('conference_signal_envelope_too_large', {
      index,
      bytes: bytes.length,
      limit: o.box.limits.envelopeBytesMax,
    });
  if (bytes.length < SIGNAL_ENVELOPE_OVERHEAD || bytes[0] !== SIGNAL_ENVELOPE_VERSION)
    throw o.errors.create('conference_signal_envelope_invalid', { index, version: SIGNAL_ENVELOPE_VERSION });
  return bytes;
}

/**
 * An offer's recipient: an account id with an Ed25519 key (to seal to) that is registered. An
 * unregistered id could never join the call, and would let a host spend the box on made-up recipients.
 */
/** An account id as given; a name in place of one as the account it names (404 not_found when unbound). */
function accountOf(o: SignalRouteOptions, text: string, details: Record<string, unknown> = {}): string {
  const name = o.calls.accountName(text);
  if (name === undefined) return text;
  if (name.id === undefined) throw gatewayError('not_found', { ...details, [name.field]: text });
  return name.id;
}

function recipientOf(o: SignalRouteOptions, given: string, index: number): string {
  const to = accountOf(o, given, { index });
  if (accountEd25519Key(to) === undefined)
    throw o.errors.create('conference_signal_recipient_invalid', { index, to: to.slice(0, 128) });
  if (!o.calls.accountExists(to))
    throw o.errors.create('conference_signal_recipient_not_registered', { index, to: to.slice(0, 128) });
  return to;
}

function refusal(o: SignalRouteOptions, r: Exclude<PostOutcome, { ok: true }>): Error {
  switch (r.code) {
    case 'conference_signal_offers_full':
      return o.errors.create(r.code, { limit: r.limit, count: r.count });
    case 'conference_signal_store_full':
      return o.errors.create(r.code, { bytes_max: r.bytesMax, retry_after_s: 5 });
    case 'conference_signal_host_quota_exceeded':
      return o.errors.create(r.code, {
        quota: r.quota,
        limit: r.limit,
        wanted: r.wanted,
        retry_after_s: Math.ceil(r.retryAfterMs / 1000),
      });
  }
}

function postOffersRoute(o: SignalRouteOptions) {
  const Body = Type.Object(
    {
      offers: Type.Array(
        Type.Object(
          {
            to: Type.String({ minLength: 1, maxLength: 512, description: 'participant account id' }),
            envelope: Type.String({
              pattern: BASE64,
              maxLength: 4 * Math.ceil(o.box.limits.envelopeBytesMax / 3),
            }),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: o.offersPerRequestMax },
      ),
    },
    { additionalProperties: false },
  );
  return defineRoute({
    method: 'POST',
    url: '/v1/conference/calls/:call_id/offers',
    operationId: 'postConferenceOffers',
    summary: "The call's host posts encrypted offers for participants (one per participant; replaces)",
    description: `${AUTH_NOTE} Signed by the call's host (403 conference_signal_not_host).`,
    tags: TAGS,
    visibility: 'public',
    auth: o.auth,
    bodyBytesMax: o.bodyBytesMax,
    errorStatuses: [404, 409, 422, 429, 503],
    schema: {
      params: CallParams,
      body: Body,
      response: { 201: Type.Object({ items: Type.Array(SignalView) }) },
    },
    handler: (req, reply) => {
      const signer = signerOf(o.auth, req);
      const call = callOf(o, req.params.call_id);
      if (signer !== call.host) throw o.errors.create('conference_signal_not_host', { call_id: call.id });
      if (call.ended) throw o.errors.create('conference_signal_call_ended', { call_id: call.id });
      const offers = req.body.offers.map((x, index) => ({
        to: recipientOf(o, x.to, index),
        envelope: envelopeOf(o, x.envelope, index),
      }));
      const r = o.box.postOffers(call.id, signer, offers);
      if (!r.ok) throw refusal(o, r);
      return reply.code(201).send({ items: r.records.map(signalJson) });
    },
  });
}

function getOfferRoute(o: SignalRouteOptions) {
  return defineRoute({
    method: 'GET',
    url: '/v1/conference/calls/:call_id/offers/:participant',
    operationId: 'getConferenceOffer',
    summary: "A participant's current encrypted offer",
    description: `${AUTH_NOTE} Signed by that participant or the call's host (403 conference_signal_forbidden).`,
    tags: TAGS,
    visibility: 'public',
    auth: o.auth,
    errorStatuses: [404],
    schema: { params: OfferParams, response: { 200: SignalView } },
    handler: (req, reply) => {
      const signer = signerOf(o.auth, req);
      const call = callOf(o, req.params.call_id);
      const participant = accountOf(o, req.params.participant);
      if (signer !== participant && signer !== call.host)
        throw o.errors.create('conference_signal_forbidden', { call_id: call.id });
      const offer = o.box.offer(call.id, participant);
      if (offer === undefined)
        throw o.errors.create('conference_signal_offer_not_found', { call_id: call.id, participant });
      return reply.send(signalJson(offer));
    },
  });
}

const visibleTo = (signer: string, host: string) => (r: SignalRecord) =>
  signer === host || r.from === signer || r.to === signer;

function pollRoute(o: SignalRouteOptions) {
  const Query = Type.Object(
    {
      after: Type.Optional(Type.Integer({ minimum: 0, description: 'cursor: the last id seen (default 0)' })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: o.pageMax })),
    },
    { additionalProperties: false },
  );
  return defineRoute({
    method: 'GET',
    url: '/v1/conference/calls/:call_id/signals',
    operationId: 'listConferenceSignals',
    summary: 'Offers and committed answers of a call after a cursor (polling)',
    description: `${AUTH_NOTE} The host sees every signal; others the ones from or to them. Poll again with \`after\` = \`cursor\`.`,
    tags: TAGS,
    visibility: 'public',
    auth: o.auth,
    errorStatuses: [404],
    schema: {
      params: CallParams,
      querystring: Query,
      response: { 200: Type.Object({ items: Type.Array(SignalView), cursor: Type.Integer() }) },
    },
    handler: (req, reply) => {
      const signer = signerOf(o.auth, req);
      const call = callOf(o, req.params.call_id);
      const after = req.query.after ?? 0;
      const items = o.box
        .signals(call.id, after, visibleTo(signer, call.host))
        .slice(0, req.query.limit ?? o.pageMax);
      return reply.send({ items: items.map(signalJson), cursor: items.at(-1)?.id ?? after });
    },
  });
}

function streamRoute(o: SignalRouteOptions) {
  const toEvent = (r: SignalRecord): StreamEvent => ({ id: r.id, name: r.kind, data: signalJson(r) });
  return defineRoute({
    method: 'GET',
    url: '/v1/conference/calls/:call_id/signals/stream',
    operationId: 'streamConferenceSignals',
    summary: 'Offers and committed answers of a call as server-sent events, resumable with Last-Event-ID',
    description:
      `${AUTH_NOTE} Each message: \`id:\` (signal id), \`event:\` (offer | answer), \`data:\` (the signal). ` +
      'Without Last-Event-ID the stream starts with every stored signal the signer may see.',
    tags: TAGS,
    visibility: 'public',
    auth: o.auth,
    formats: { default: 'sse', offers: ['sse'] },
    errorStatuses: [404, 429],
    schema: { params: CallParams, response: { 200: Type.String({ description: 'text/event-stream' }) } },
    handler: (req, reply) => {
      const signer = signerOf(o.auth, req);
      // A malformed Last-Event-ID is the client's first error, as on every stream (sse-frame.ts).
      const cursor = lastEventIdOf(req);
      const call = callOf(o, req.params.call_id);
      const feed = o.box.feed(call.id, visibleTo(signer, call.host), toEvent);
      // Replay from the start when the client names no cursor: a signal box is state, not history.
      serveSse(req, reply, cursor !== undefined ? feed : { ...feed, lastId: () => 0 });
    },
  });
}

export function signalRoutes(o: SignalRouteOptions): RouteDef[] {
  return [postOffersRoute(o), getOfferRoute(o), pollRoute(o), streamRoute(o)];
}

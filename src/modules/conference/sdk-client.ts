// The conference methods of ToranaClient (docs/conference.md "Routes and CLI", "Signalling"): the
// typed readers of the call, relay and shielded pool routes, and the signalling calls. sdk.ts declares
// them on the ToranaClient interface and installs them (src/sdk/client.ts installClientMethods), so a
// client has them wherever the SDK is loaded.

import type { ToranaClient } from '../../sdk/client.js';
import * as conference from './sdk-reads.js';
import * as signalling from './sdk-signals.js';

function conferenceGet(c: ToranaClient, signed: boolean | undefined): conference.JsonGet {
  if (signed !== true) return conference.plainGet(c.http);
  return (path, query) => c.signedJson({ method: 'GET', path, query });
}

function signalClient(c: ToranaClient): signalling.SignalClient {
  const { account, signer } = c.identity();
  const pair = (signer as { handshakeKeyPair?: () => signalling.SignalKeyPair }).handshakeKeyPair?.();
  if (pair === undefined)
    throw new Error('conference signalling needs an Ed25519 key pair as the signer (importKeyPair)');
  return { http: c.http, account, signer, keyPair: pair };
}

export const CONFERENCE_CLIENT_METHODS = {
  /** One conference call (`<domain>:<call name>`); `signed` reads an `authenticated` one. */
  getCall(this: ToranaClient, id: string, opts: conference.SignedOption = {}) {
    return conference.getCall(conferenceGet(this, opts.signed), id);
  },
  /** Conference calls; `authenticated` ones only with `signed`. */
  listCalls(this: ToranaClient, opts: conference.CallListOptions = {}) {
    return conference.listCalls(conferenceGet(this, opts.signed), opts);
  },
  getRelay(this: ToranaClient, id: string) {
    return conference.getRelay(conferenceGet(this, false), id);
  },
  listRelays(this: ToranaClient, opts?: conference.RelayListOptions) {
    return conference.listRelays(conferenceGet(this, false), opts);
  },
  relayHealth(this: ToranaClient, opts?: conference.PageOptions) {
    return conference.relayHealth(conferenceGet(this, false), opts);
  },
  /**
   * The whole shielded pool tree (note commitments in leaf order, roots) a note spend is proved
   * against, read page by page (`pageSize` leaves a request).
   */
  shieldedPool(this: ToranaClient, opts?: { pageSize?: number }) {
    return conference.shieldedPool(conferenceGet(this, false), opts);
  },
  /** One page of the shielded pool tree (`limit` leaves from leaf `offset`), its leaf count and roots. */
  shieldedPoolPage(this: ToranaClient, opts?: conference.PageOptions) {
    return conference.shieldedPoolPage(conferenceGet(this, false), opts);
  },
  /** Whether a roster, usage or note nullifier (hex) is spent (check before proving). */
  nullifierSpent(this: ToranaClient, kind: 'roster' | 'usage' | 'note', nullifier: string) {
    return conference.nullifierSpent(conferenceGet(this, false), kind, nullifier);
  },
  relayEvents(this: ToranaClient, opts?: conference.RelayEventOptions) {
    return conference.relayEvents(this.http, opts);
  },
  /** The host seals one offer per participant (SDP text) and posts them to the node. */
  publishOffers(
    this: ToranaClient,
    callId: string,
    offers: ReadonlyArray<{ to: string; description: string }>,
  ) {
    return signalling.publishOffers(signalClient(this), callId, offers);
  },
  /** The participant's current offer, opened with this client's key. */
  fetchOffer(this: ToranaClient, callId: string) {
    return signalling.fetchOffer(signalClient(this), callId);
  },
  /** JoinConference (transparent call) carrying `description` sealed to the host. */
  joinWithAnswer(this: ToranaClient, callId: string, host: string, description: string) {
    return signalling.joinWithAnswer(this.identity(), callId, host, description);
  },
  /** Opens an answer signal addressed to this client (the host). */
  openAnswer(this: ToranaClient, signal: signalling.Signal) {
    return signalling.openAnswer(signalClient(this), signal);
  },
  pollSignals(this: ToranaClient, callId: string, after?: number) {
    return signalling.pollSignals(signalClient(this), callId, after);
  },
  watchSignals(this: ToranaClient, callId: string, opts?: { since?: number; signal?: AbortSignal }) {
    return signalling.watchSignals(signalClient(this), callId, opts);
  },
};

type Methods = typeof CONFERENCE_CLIENT_METHODS;

/** The conference methods as a client has them. */
export type ConferenceClientMethods = { [K in keyof Methods]: OmitThisParameter<Methods[K]> };

// Typed readers of the telemetry routes (docs/telemetry.md), decoded with the node's own view codecs
// (src/telemetry/views.ts), so the SDK and the node cannot drift. Each takes a client (or anything with
// its `http`): `await telemetryPeersInfo(client)`.

import {
  type PeersInfo,
  PeersInfoView,
  type Propagation,
  PropagationView,
  type TelemetrySnapshot,
  TelemetrySnapshotView,
} from '../telemetry/views.js';
import { decodeAnswer } from './answers.js';
import type { Http } from './http.js';
import { sseStream } from './sse.js';

export type { PeerInfo, PeerReport, PeersInfo, Propagation, TelemetrySnapshot } from '../telemetry/views.js';

/** A `ToranaClient`, or anything else holding its transport. */
export interface HasHttp {
  readonly http: Http;
}

/** This node (first, `self: true`) and each configured peer with its connection state. */
export async function telemetryPeersInfo(
  c: HasHttp,
  page: { limit?: number; offset?: number } = {},
): Promise<PeersInfo> {
  const path = '/v1/telemetry/peers-info';
  return decodeAnswer(PeersInfoView, await c.http.json({ method: 'GET', path, query: { ...page } }), path);
}

/** How the newest block spread, from what the node observed. */
export async function telemetryPropagation(c: HasHttp): Promise<Propagation> {
  const path = '/v1/telemetry/propagation';
  return decodeAnswer(PropagationView, await c.http.json({ method: 'GET', path }), path);
}

export interface TelemetryLiveOptions {
  /** Resume after this event id (snapshots have no history: the next one follows). */
  since?: number;
  signal?: AbortSignal;
}

/** Telemetry snapshots over SSE (`telemetry.live_interval_ms` apart), reconnecting after drops. */
export async function* telemetryLive(
  c: HasHttp,
  o: TelemetryLiveOptions = {},
): AsyncGenerator<{ id: number; snapshot: TelemetrySnapshot }> {
  const stream = sseStream(c.http, {
    path: '/v1/telemetry/live',
    ...(o.since === undefined ? {} : { lastEventId: o.since }),
    ...(o.signal ? { signal: o.signal } : {}),
  });
  for await (const m of stream) {
    if (m.event !== 'telemetry') continue;
    yield { id: m.id, snapshot: decodeAnswer(TelemetrySnapshotView, JSON.parse(m.data), 'telemetry event') };
  }
}

// The telemetry module's SDK surface: typed readers of its routes (docs/telemetry.md), decoded with the
// node's own view codecs (views.ts), so the SDK and the node cannot drift. src/sdk/index.ts re-exports
// these names through the registry. Each takes a client (or anything with
// its `http`): `await telemetryPeersInfo(client)`.

import { decodeAnswer } from '../../sdk/answers.js';
import type { Http } from '../../sdk/http.js';
import { sseStream } from '../../sdk/sse.js';
import {
  type PeersInfo,
  PeersInfoView,
  type Propagation,
  PropagationView,
  type TelemetrySnapshot,
  TelemetrySnapshotView,
} from './views.js';

export type { PeerInfo, PeerReport, PeersInfo, Propagation, TelemetrySnapshot } from './views.js';

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

/** The module's SDK functions by name (its descriptor lists them; src/sdk/index.ts exports each). */
export const TELEMETRY_SDK = { telemetryPeersInfo, telemetryPropagation, telemetryLive } as const;

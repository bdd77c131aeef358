// Common routes: health, versions, status,
// capabilities, time, peers, schema and parameters. /metrics and /openapi are registered by the server.

import { Type } from 'typebox';
import type { Infer } from '../../codec/codec.js';
import { CODEC_VERSION } from '../../codec/frame.js';
import type { ConsensusSnapshot } from '../../consensus/engine.js';
import { ParametersCodec } from '../../model/parameters.js';
import { DATA_MODEL_VERSION } from '../../model/schema.js';
import { toHex } from '../../util/hex.js';
import type { RouteDeps } from '../deps.js';
import { gatewayError } from '../errors.js';
import type { NodeInfoPort, StateReader } from '../ports.js';
import { defineRoute, type RouteDef } from '../route-table.js';
import { JSON_MEDIA, viewRoute } from '../view.js';
import {
  ApiVersionsView,
  ApiVersionView,
  CapabilitiesView,
  HealthView,
  PeersView,
  SchemaView,
  StatusView,
  TimeNowView,
  TimeStatusView,
} from '../views/common.js';
import { num, str } from '../views/status-json.js';
import { timeNowOf, timeStatusOf } from './time.js';

/** Resources the query aggregate helpers can count. */
export const AGGREGATE_RESOURCES = [
  'accounts',
  'assets',
  'asset_definitions',
  'domains',
  'nfts',
  'roles',
  'peers',
  'transactions',
  'blocks',
];

/**
 * The state root in hex, hashed once per committed state (the status route reads it on every request;
 * the rest of the status moves with the clock and the queue, so the answer itself is not cached).
 */
export function stateRootHex(state: StateReader): () => string {
  let version = Number.NaN;
  let hex = '';
  return () => {
    if (state.version !== version) {
      hex = toHex(state.stateRoot());
      version = state.version;
    }
    return hex;
  };
}

export function statusOf(
  d: RouteDeps,
  rootHex: () => string = () => toHex(d.ports.state.stateRoot()),
): Infer<typeof StatusView> {
  const { node, chain, transactions, consensus } = d.ports;
  const c = transactions.counters();
  const snap = consensus.snapshot();
  const uptimeMs = Math.max(0, node.nowMs() - node.startedAtMs);
  const q = quorumOf(snap.validatorSet, node);
  return {
    peers: node.connectedPeers().length,
    blocks: chain.height(),
    blocksNonEmpty: c.blocksNonEmpty,
    commitTimeMs: Math.round(c.lastCommitMs),
    txsApproved: c.txsApproved,
    txsRejected: c.txsRejected,
    txsExpired: c.txsExpired,
    uptime: { secs: Math.floor(uptimeMs / 1000), nanos: (uptimeMs % 1000) * 1_000_000 },
    viewChanges: snap.viewChanges,
    queueSize: transactions.queueDepth(),
    queueCapacity: transactions.queueCapacity(),
    stateRoot: rootHex(),
    consensus: {
      mode: snap.mode,
      height: snap.height,
      view: snap.view,
      leaderIndex: snap.leaderIndex,
      validators: snap.validatorSet.size,
    },
    chainId: node.chainId,
    nodeId: node.peerId,
    role: node.role,
    version: node.version,
    latestBlockHeight: chain.height(),
    latestBlockHash: toHex(chain.tipHash()),
    latestBlockTimeMs: chain.tipTimeMs(),
    catchingUp: snap.catchingUp,
    ...q,
  };
}

/**
 * The JSON text of `GET /status` (exactly `statusJson(statusOf(d, rootHex))`, tested) written from
 * cached parts. Every value is read on every request; the text is written again only where a value
 * changed since the last answer: the text before the uptime (peers, chain height, chain counters), the
 * uptime itself (it moves with every millisecond) and the text after it (view changes, queue, state root,
 * consensus, the node's identity, the chain tip, quorum), whose slow parts (state root, consensus mode,
 * identity, tip with its hash in hex) are kept with their own values. No status object is built for the
 * JSON answer.
 */
export function statusTextOf(d: RouteDeps, rootHex: () => string): () => string {
  const { node, chain, transactions, consensus } = d.ports;
  let root: string | undefined;
  let rootText = '';
  let mode: string | undefined;
  let modeText = '';
  let tipHeight: number | undefined;
  let tipHash: Uint8Array | undefined;
  let tipTimeMs: number | undefined;
  let tipText = '';
  let identity: readonly [string, string, string, string] | undefined;
  let identityText = '';
  // The values the text before the uptime was written from, and that text.
  let head: readonly number[] = [];
  let headText = '';
  // The values the text after the uptime was written from, and that text.
  let tail: readonly unknown[] = [];
  let tailText = '';
  return () => {
    const c = transactions.counters();
    const snap = consensus.snapshot();
    const uptimeMs = Math.max(0, node.nowMs() - node.startedAtMs);
    const q = quorumOf(snap.validatorSet, node);
    const height = chain.height();
    const r = rootHex();
    if (r !== root) {
      rootText = `,"state_root":${str(r)},"consensus":{"mode":`;
      root = r;
    }
    if (snap.mode !== mode) {
      modeText = str(snap.mode);
      mode = snap.mode;
    }
    const hash = chain.tipHash();
    const timeMs = chain.tipTimeMs();
    if (height !== tipHeight || hash !== tipHash || timeMs !== tipTimeMs) {
      tipText =
        `,"latest_block_height":${num(height)},"latest_block_hash":${str(toHex(hash))},` +
        `"latest_block_time_ms":${num(timeMs)},"catching_up":`;
      tipHeight = height;
      tipHash = hash;
      tipTimeMs = timeMs;
    }
    if (
      identity === undefined ||
      identity[0] !== node.chainId ||
      identity[1] !== node.peerId ||
      identity[2] !== node.role ||
      identity[3] !== node.version
    ) {
      identity = [node.chainId, node.peerId, node.role, node.version];
      identityText =
        `},"chain_id":${str(identity[0])},"node_id":${str(identity[1])},"role":${str(identity[2])},` +
        `"version":${str(identity[3])}`;
    }
    const peers = node.connectedPeers().length;
    const commitMs = Math.round(c.lastCommitMs);
    if (
      peers !== head[0] ||
      height !== head[1] ||
      c.blocksNonEmpty !== head[2] ||
      commitMs !== head[3] ||
      c.txsApproved !== head[4] ||
      c.txsRejected !== head[5] ||
      c.txsExpired !== head[6]
    ) {
      head = [peers, height, c.blocksNonEmpty, commitMs, c.txsApproved, c.txsRejected, c.txsExpired];
      headText =
        `{"peers":${num(peers)},"blocks":${num(height)},"blocks_non_empty":${num(c.blocksNonEmpty)},` +
        `"commit_time_ms":${num(commitMs)},"txs_approved":${num(c.txsApproved)},` +
        `"txs_rejected":${num(c.txsRejected)},"txs_expired":${num(c.txsExpired)},"uptime":{"secs":`;
    }
    const queueSize = transactions.queueDepth();
    const queueCapacity = transactions.queueCapacity();
    if (
      snap.viewChanges !== tail[0] ||
      queueSize !== tail[1] ||
      queueCapacity !== tail[2] ||
      rootText !== tail[3] ||
      modeText !== tail[4] ||
      snap.height !== tail[5] ||
      snap.view !== tail[6] ||
      snap.leaderIndex !== tail[7] ||
      snap.validatorSet.size !== tail[8] ||
      identityText !== tail[9] ||
      tipText !== tail[10] ||
      snap.catchingUp !== tail[11] ||
      q.validatorsReachable !== tail[12] ||
      q.validatorsTotal !== tail[13] ||
      q.quorumNeeded !== tail[14] ||
      q.quorumReachable !== tail[15]
    ) {
      tail = [
        snap.viewChanges,
        queueSize,
        queueCapacity,
        rootText,
        modeText,
        snap.height,
        snap.view,
        snap.leaderIndex,
        snap.validatorSet.size,
        identityText,
        tipText,
        snap.catchingUp,
        q.validatorsReachable,
        q.validatorsTotal,
        q.quorumNeeded,
        q.quorumReachable,
      ];
      tailText =
        `},"view_changes":${num(snap.viewChanges)},"queue_size":${num(queueSize)},` +
        `"queue_capacity":${num(queueCapacity)}${rootText}${modeText},"height":${num(snap.height)},` +
        `"view":${num(snap.view)},"leader_index":${num(snap.leaderIndex)},` +
        `"validators":${num(snap.validatorSet.size)}${identityText}${tipText}` +
        `${snap.catchingUp ? 'true' : 'false'},"validators_reachable":${num(q.validatorsReachable)},` +
        `"validators_total":${num(q.validatorsTotal)},"quorum_needed":${num(q.quorumNeeded)},` +
        `"quorum_reachable":${q.quorumReachable ? 'true' : 'false'}}`;
    }
    return `${headText}${num(Math.floor(uptimeMs / 1000))},"nanos":${num((uptimeMs % 1000) * 1_000_000)}${tailText}`;
  };
}

/**
 * `GET /status`: the route `viewRoute` would declare, answering JSON with the status written directly
 * as text from cached parts (`statusTextOf`: equal to the view's JSON form); the codec as any view.
 */
function statusRoute(d: RouteDeps, rootHex: () => string, r: Parameters<typeof viewRoute>[1]): RouteDef {
  const route = viewRoute(d.schema, r, StatusView, () => statusOf(d, rootHex));
  const text = statusTextOf(d, rootHex);
  return {
    ...route,
    handler: (req, reply) =>
      req.responseFormat === 'json'
        ? reply.code(200).type(JSON_MEDIA).send(text())
        : route.handler(req, reply),
  };
}

/**
 * Validators of the current set this node has a live session with (itself included when it is one of
 * them) against the set's quorum: fewer than the quorum reachable and no block can commit.
 */
export function quorumOf(
  set: ConsensusSnapshot['validatorSet'],
  node: {
    readonly peerId: NodeInfoPort['peerId'];
    peers(): readonly { readonly peerId: string; readonly connected: boolean }[];
  },
): { validatorsReachable: number; validatorsTotal: number; quorumNeeded: number; quorumReachable: boolean } {
  // Read per status request: no set or array is built for a lone node (no peers).
  let live: Set<string> | undefined;
  for (const p of node.peers()) {
    if (!p.connected) continue;
    live ??= new Set();
    live.add(p.peerId);
  }
  let reachable = 0;
  for (const v of set.validators) if (v.peer === node.peerId || live?.has(v.peer) === true) reachable++;
  return {
    validatorsReachable: reachable,
    validatorsTotal: set.size,
    quorumNeeded: set.quorum,
    quorumReachable: reachable >= set.quorum,
  };
}

function capabilities(d: RouteDeps): Infer<typeof CapabilitiesView> {
  return {
    abiVersion: d.ports.state.abiVersion(),
    dataModelVersion: DATA_MODEL_VERSION,
    codecVersion: CODEC_VERSION,
    chainId: d.ports.node.chainId,
    crypto: { defaultHash: 'blake2b-256', signingAlgorithms: ['ed25519'], consensusSignature: 'bls12_381' },
    query: { aggregate: { supportedResources: AGGREGATE_RESOURCES }, fetchSizeMax: d.limits.fetchSizeMax },
    features: [...d.features],
  };
}

function timeNow(d: RouteDeps): Infer<typeof TimeNowView> {
  const { node, state } = d.ports;
  return timeNowOf(node.time(), node.nowMs(), state.parameters().maxClockDriftMs);
}

function timeStatus(d: RouteDeps): Infer<typeof TimeStatusView> {
  return timeStatusOf(d.ports.node.time(), d.ports.state.parameters().maxClockDriftMs);
}

const TIME_DESCRIPTION =
  "Offsets of the peers' clocks, measured as NTP does over the peer channel (each sample t0..t3: offset ((t1-t0)+(t2-t3))/2, delay (t3-t0)-(t2-t1)); per peer the least-delay sample of its newest 8, median over peers. now: this node's clock plus offset_ms; confidence_ms: half the median delay. Fewer than 3 samples: fallback true, offset 0, this node's own clock.";

export function commonRoutes(d: RouteDeps): RouteDef[] {
  const tags = ['node'];
  const pub = (url: string, operationId: string, summary: string) => ({
    url,
    operationId,
    summary,
    tags,
    visibility: 'public' as const,
  });
  const rootHex = stateRootHex(d.ports.state);
  // Answers that depend only on the committed state (and the URL) are serialised once per commit.
  const cached = d.answers;
  const healthy = () => {
    if (!d.ports.node.healthy()) throw d.errors.create('node_unhealthy');
    return { status: 'ok' };
  };
  return [
    viewRoute(
      d.schema,
      { ...pub('/health', 'getHealth', 'Liveness: 200 while the node runs'), errorStatuses: [503] },
      HealthView,
      healthy,
    ),
    viewRoute(
      d.schema,
      { ...pub('/v1/health', 'getHealthV1', 'Liveness (versioned path)'), errorStatuses: [503] },
      HealthView,
      healthy,
    ),
    viewRoute(d.schema, pub('/api_version', 'getApiVersion', 'Default API version'), ApiVersionView, () => ({
      version: String(d.apiVersions.default),
    })),
    viewRoute(
      d.schema,
      pub('/v1/api/versions', 'getApiVersions', 'Supported API versions'),
      ApiVersionsView,
      () => ({
        default: String(d.apiVersions.default),
        supported: d.apiVersions.supported.map(String),
      }),
    ),
    statusRoute(d, rootHex, {
      ...pub('/status', 'getStatus', 'Operator status summary'),
      visibility: 'status',
      description:
        "peers: connected peers; blocks: chain height; blocks_non_empty, txs_approved, txs_rejected: counted from the chain (they survive restarts); txs_expired: dropped from the queue by this process; commit_time_ms: the last commit; uptime; view_changes: since start; queue_size / queue_capacity; state_root; consensus {mode, height, view, leader_index (roster index), validators}; chain_id; node_id: this node's public key; role: validator, observer or single; version; latest_block_height / latest_block_hash / latest_block_time_ms (Unix ms; 0 before block 1); catching_up: block sync in progress; validators_reachable: validators of the current set with a live session, this node included; validators_total; quorum_needed: signatures a block needs; quorum_reachable: validators_reachable >= quorum_needed, else no block can commit.",
    }),
    defineRoute({
      method: 'GET',
      url: '/status/:field',
      operationId: 'getStatusField',
      summary: 'One field of the status summary',
      tags,
      visibility: 'status',
      errorStatuses: [404],
      schema: {
        params: Type.Object({ field: Type.String({ maxLength: 64 }) }),
        // Documents the answer (any JSON value: a number or an object, depending on the field).
        response: { 200: Type.Unknown({ description: 'The JSON value of that field of GET /status' }) },
      },
      handler: (req, reply) => {
        const json = StatusView.toJson(statusOf(d, rootHex)) as Record<string, unknown>;
        if (!Object.hasOwn(json, req.params.field))
          throw gatewayError('not_found', { field: req.params.field, fields: Object.keys(json) });
        return reply.type('application/json; charset=utf-8').send(JSON.stringify(json[req.params.field]));
      },
    }),
    viewRoute(
      d.schema,
      pub('/v1/node/capabilities', 'getCapabilities', 'Node capabilities and data-model metadata'),
      CapabilitiesView,
      () => capabilities(d),
      cached,
    ),
    viewRoute(
      d.schema,
      {
        ...pub('/v1/time/now', 'getTimeNow', 'Wall-clock snapshot'),
        description: TIME_DESCRIPTION,
      },
      TimeNowView,
      () => timeNow(d),
    ),
    viewRoute(
      d.schema,
      {
        ...pub('/v1/time/status', 'getTimeStatus', 'Time synchronisation status'),
        description: TIME_DESCRIPTION,
      },
      TimeStatusView,
      () => timeStatus(d),
    ),
    viewRoute(
      d.schema,
      pub('/peers', 'getPeers', 'Connected peers as "<public key>@<host:port>"'),
      PeersView,
      () => d.ports.node.connectedPeers(),
    ),
    viewRoute(
      d.schema,
      pub('/schema', 'getSchema', 'Data-model schema snapshot (every codec type)'),
      SchemaView,
      () => {
        const s = d.schema.snapshot();
        return { version: s.version, types: s.types as never };
      },
    ),
    viewRoute(
      d.schema,
      pub('/v1/parameters', 'getParameters', 'Chain parameters in force'),
      ParametersCodec,
      () => d.ports.state.parameters(),
      cached,
    ),
  ];
}

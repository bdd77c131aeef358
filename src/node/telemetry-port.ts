// Adapts the node to the telemetry family's port (telemetry/port.ts): identity and role from the
// configuration and the node key, peers from the p2p layer, commits from the event bus, block creation
// times and hashes from the block store, and the p2p channel for peer reports (telemetry/report-codec.ts:
// node/bft.ts keeps those messages away from the consensus engine).

import type { RouteDeps } from '../gateway/deps.js';
import { blockHash } from '../model/block.js';
import type { TelemetryPort } from '../telemetry/port.js';
import { isReportMessage } from '../telemetry/report-codec.js';
import { toHex } from '../util/hex.js';
import { ConfigLoadError } from './load-config.js';
import type { Node } from './node.js';
import { softwareVersion } from './version.js';

const GATEWAY_URL_BYTES_MAX = 512;

/** `telemetry.gateway_url` checked: empty, or an http(s) URL of at most 512 bytes. */
export function configuredGatewayUrl(value: string): string | undefined {
  if (value === '') return undefined;
  let ok = Buffer.byteLength(value) <= GATEWAY_URL_BYTES_MAX;
  try {
    ok &&= ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    ok = false;
  }
  if (!ok)
    throw new ConfigLoadError(
      `config_invalid_value: telemetry.gateway_url must be an http:// or https:// URL of at most ${GATEWAY_URL_BYTES_MAX} bytes, got ${JSON.stringify(value.slice(0, 80))}`,
    );
  return value;
}

/** Whether a `host:port` listens on every address (its host then names no reachable gateway). */
export function wildcardHost(address: string): boolean {
  const host = address.slice(0, address.lastIndexOf(':')).replace(/^\[|\]$/g, '');
  return host === '0.0.0.0' || host === '::' || host === '';
}

export function telemetryPort(node: Node, deps: RouteDeps): TelemetryPort {
  const info = deps.ports.node;
  const configured = configuredGatewayUrl(node.config.telemetry.gatewayUrl);
  const version = softwareVersion();
  return {
    self: () => {
      const scheme = node.config.gateway.tlsCertFile === '' ? 'http' : 'https';
      const listening = `${scheme}://${info.address}`;
      const reportedUrl = configured ?? (wildcardHost(info.address) ? undefined : listening);
      return {
        peerId: info.peerId,
        url: configured ?? listening,
        ...(reportedUrl === undefined ? {} : { reportedUrl }),
        version,
        chainId: info.chainId,
        role: node.config.network.role,
        consensus: node.engine.mode,
      };
    },
    peers: () => info.peers(),
    height: () => node.ledger.height(),
    blockAt: async (h) => {
      const b = await node.ledger.block(h);
      return b === undefined
        ? undefined
        : { createdAtMs: b.header.creationTimeMs, hash: toHex(blockHash(b.header)) };
    },
    onBlockCommitted: (fn) =>
      deps.ports.events.subscribe(({ event: e }) => {
        if (e.kind === 'Block' && e.status.kind === 'Applied') fn(e.height, toHex(e.hash));
      }),
    queueDepth: () => deps.ports.transactions.queueDepth(),
    broadcast: (bytes) => node.network?.broadcast(bytes) ?? 0,
    onPeerMessage: (fn) => {
      let on = true;
      node.network?.onMessage((from, bytes) => {
        if (on && isReportMessage(bytes)) fn(from, bytes);
      });
      return () => {
        on = false;
      };
    },
    nowMs: () => info.nowMs(),
  };
}

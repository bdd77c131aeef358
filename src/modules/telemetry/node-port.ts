// The telemetry family's port (port.ts) from the node's route env: identity, role and version from the
// node info port and the configuration, peers from the p2p layer's view, commits from the event feed,
// block creation times and hashes from the chain, and the node's peer channel for peer reports
// (report-codec.ts; the descriptor's `peerMessages` keeps those from the consensus engine).

import { ConfigLoadError } from '../../config/errors.js';
import { sectionValues } from '../../config/schema.js';
import { blockHash } from '../../model/block.js';
import { toHex } from '../../util/hex.js';
import type { ModuleRouteEnv } from '../descriptor.js';
import { telemetryConfig } from './config.js';
import type { TelemetryPort } from './port.js';
import { isReportMessage } from './report-codec.js';

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

export function telemetryPort(env: Pick<ModuleRouteEnv, 'deps' | 'config' | 'peers'>): TelemetryPort {
  const { deps, config } = env;
  const info = deps.ports.node;
  const configured = configuredGatewayUrl(sectionValues(config, telemetryConfig).gatewayUrl);
  // The engine running (`single-peer` or `bft`) is fixed for the node's life.
  const consensus = deps.ports.consensus.snapshot().mode;
  return {
    self: () => {
      const scheme = config.gateway.tlsCertFile === '' ? 'http' : 'https';
      const listening = `${scheme}://${info.address}`;
      const reportedUrl = configured ?? (wildcardHost(info.address) ? undefined : listening);
      return {
        peerId: info.peerId,
        url: configured ?? listening,
        ...(reportedUrl === undefined ? {} : { reportedUrl }),
        version: info.version,
        chainId: info.chainId,
        role: config.network.role,
        consensus,
      };
    },
    peers: () => info.peers(),
    height: () => deps.ports.chain.height(),
    blockAt: async (h) => {
      const b = await deps.ports.chain.block(h);
      return b === undefined
        ? undefined
        : { createdAtMs: b.header.creationTimeMs, hash: toHex(blockHash(b.header)) };
    },
    onBlockCommitted: (fn) =>
      deps.ports.events.subscribe(({ event: e }) => {
        if (e.kind === 'Block' && e.status.kind === 'Applied') fn(e.height, toHex(e.hash));
      }),
    queueDepth: () => deps.ports.transactions.queueDepth(),
    broadcast: (bytes) => env.peers?.broadcast(bytes) ?? 0,
    onPeerMessage: (fn) => {
      let on = true;
      env.peers?.onMessage((from, bytes) => {
        if (on && isReportMessage(bytes)) fn(from, bytes);
      });
      return () => {
        on = false;
      };
    },
    nowMs: () => info.nowMs(),
  };
}

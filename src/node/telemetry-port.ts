// Adapts the node to the telemetry family's port (telemetry/port.ts): identity and role from the
// configuration and the node key, peers from the p2p layer, commits from the event bus, block creation
// times from the block store.

import type { RouteDeps } from '../gateway/deps.js';
import type { TelemetryPort } from '../telemetry/port.js';
import type { Node } from './node.js';

export function telemetryPort(node: Node, deps: RouteDeps): TelemetryPort {
  const info = deps.ports.node;
  return {
    self: () => ({
      peerId: info.peerId,
      url: `http://${info.address}`,
      chainId: info.chainId,
      role: node.config.network.role,
      consensus: node.engine.mode,
    }),
    peers: () => info.peers(),
    height: () => node.ledger.height(),
    blockCreatedAtMs: async (h) => (await node.ledger.block(h))?.header.creationTimeMs,
    onBlockCommitted: (fn) =>
      deps.ports.events.subscribe(({ event: e }) => {
        if (e.kind === 'Block' && e.status.kind === 'Applied') fn(e.height);
      }),
    nowMs: () => info.nowMs(),
  };
}

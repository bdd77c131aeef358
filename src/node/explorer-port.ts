// Adapts the node's gateway ports to the explorer family's port (src/explorer/port.ts).

import type { ExplorerPort } from '../explorer/port.js';
import type { GatewayPorts } from '../gateway/ports.js';

export function explorerPort(p: GatewayPorts): ExplorerPort {
  return {
    state: p.state,
    chain: p.chain,
    events: p.events,
    blockHeightByHash: (hash) => p.consensus.blockHeightByHash(hash),
    peerCount: () => 1 + p.node.peers().filter((x) => x.peerId !== p.node.peerId).length,
    nowMs: () => p.node.nowMs(),
  };
}

// What the explorer family needs from the node (gateway/family.ts): the committed world state, the block
// store, the event bus (to follow commits), a block-by-hash lookup and how many peers the node knows.
// node/families.ts adapts the node to it in one line.

import type { ChainReader, EventsPort, StateReader } from '../../gateway/ports.js';

export interface ExplorerPort {
  state: StateReader;
  chain: ChainReader;
  events: EventsPort;
  /** The height of a committed block by its hash, among the newest blocks the node can look up. */
  blockHeightByHash(hash: Uint8Array): Promise<number | undefined>;
  /** Peers this node is configured with or connected to, itself included. */
  peerCount(): number;
  /** Wall-clock time (ms), for the commit-time average. */
  nowMs(): number;
}

// What the BFT driver needs from the outside: the pipeline's host port (plus gossip intake), a transport
// to peers, a durable store for the safety state, and a sink for evidence. The node plugs in the
// PeerNetwork, a file and the evidence store; the simulator plugs in its simulated network and disk.

import type { ConsensusHost } from '../../pipeline/consensus-host.js';
import type { ValidatorSet } from '../validator-set.js';
import type { EvidenceFinding, SafetyState } from './types.js';

export interface BftHost extends ConsensusHost<ValidatorSet> {
  /** Admits a transaction gossiped by `peer` (every admission check applies; duplicates are refused). */
  submit(body: Uint8Array, source?: string): Promise<unknown>;
}

export interface BftTransport {
  send(to: string, bytes: Uint8Array): void;
  /** To every connected peer, validators and observers alike. */
  broadcast(bytes: Uint8Array): void;
  /** A peer sent bytes that are not a peer message: count it and drop the connection. */
  reportGarbage(peer: string): void;
}

export interface SafetyStore {
  load(): Promise<SafetyState | undefined>;
  /** Resolves once the state is durable. */
  save(s: SafetyState): Promise<void>;
}

export interface BftDriverOptions {
  /** Least time between the starts of two proposals by this peer (`block.min_interval_ms`). */
  minIntervalMs: number;
  /** Blocks asked for in one sync request. */
  syncBatchBlocks: number;
  /** Transactions per gossip message. */
  gossipBatchMax: number;
  /** Recent certificates kept for the routes. */
  recentCertificatesMax: number;
  onEvidence(finding: EvidenceFinding): void;
  onFatal(error: unknown): void;
}

// Adapts the node's consensus engine, chain and evidence store to the gateway's ConsensusPort
// (gateway/ports.ts). Everything reported comes from the running engine, the configuration or the chain.

import { admitEvidence } from '../consensus/evidence-store.js';
import { keyLifecycle } from '../consensus/membership.js';
import type { ConsensusPort, ConsensusSettings } from '../gateway/ports.js';
import type { Block } from '../model/block.js';
import { toHex } from '../util/hex.js';
import type { Node } from './node.js';

/** Newest blocks whose hashes `/v1/consensus/commit_qc/{hash}` can resolve (~100 bytes of memory each). */
export const BLOCK_HASH_LOOKUP_MAX = 16_384;

interface BlockSource {
  height(): number;
  block(height: number): Promise<Block | undefined>;
}

/**
 * hash → height of the newest `windowMax` blocks, filled on demand from the chain: the first lookup reads
 * the window once, later ones only the blocks committed since (which the ledger still has in its cache).
 * One refresh runs at a time; concurrent lookups wait for it. The hash comes from each block's commit
 * certificate, which names the block it certifies.
 */
export class BlockHashIndex {
  private readonly byHash = new Map<string, number>();
  /** Indexed (height, hash) pairs, oldest first, for eviction. */
  private readonly order: { height: number; hex: string }[] = [];
  private indexedTo = 0;
  private refreshing: Promise<void> | undefined;

  constructor(
    private readonly chain: BlockSource,
    private readonly windowMax: number,
  ) {}

  async heightOf(blockHash: Uint8Array): Promise<number | undefined> {
    while (this.indexedTo < this.chain.height()) {
      this.refreshing ??= this.refresh().finally(() => (this.refreshing = undefined));
      await this.refreshing;
    }
    return this.byHash.get(toHex(blockHash));
  }

  private async refresh(): Promise<void> {
    const tip = this.chain.height();
    const lowest = Math.max(1, tip - this.windowMax + 1);
    for (let h = Math.max(this.indexedTo + 1, lowest); h <= tip; h++) {
      const block = await this.chain.block(h);
      if (block === undefined) continue;
      const hex = toHex(block.certificate.blockHash);
      this.byHash.set(hex, h);
      this.order.push({ height: h, hex });
    }
    this.indexedTo = tip;
    while (this.order.length > 0 && this.order[0]!.height < lowest) {
      this.byHash.delete(this.order.shift()!.hex);
    }
  }
}

export function createConsensusPort(node: Node): ConsensusPort {
  const { config, engine, ledger } = node;
  const settings: ConsensusSettings = Object.freeze({
    blockTimeMs: config.block.timeMs,
    commitTimeMs: config.block.commitTimeMs,
    // Single-peer: the one validator collects its own vote. BFT: k collectors, each vote sent to all k.
    collectorsK: engine.mode === 'bft' ? config.consensus.collectorsK : 1,
    collectorsR: engine.mode === 'bft' ? config.consensus.collectorsK : 1,
    statusIntervalMs: config.streams.consensusStatusIntervalMs,
    blockHashLookupMax: BLOCK_HASH_LOOKUP_MAX,
  });
  const index = new BlockHashIndex(ledger, BLOCK_HASH_LOOKUP_MAX);
  return {
    snapshot: () => engine.snapshot(),
    settings: () => settings,
    keyLifecycle: () => keyLifecycle(ledger.state),
    blockHeightByHash: (h) => index.heightOf(h),
    evidence: {
      submit: async (bytes) => {
        const outcome = admitEvidence(bytes, {
          chainId: config.node.chainId,
          validatorSets: engine.snapshot().validatorSetHistory.map((e) => e.set),
          store: node.evidence,
          nowMs: node.clock.nowMs(),
          height: ledger.height(),
        });
        // Answer only once the record is on disk (a duplicate was made durable by its first submission).
        if (outcome.ok) await node.evidence.flush();
        return outcome;
      },
      list: (q) => node.evidence.list(q),
      count: () => node.evidence.count(),
    },
  };
}

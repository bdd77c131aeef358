// Recovery checks after a crash:
// the parent reopens the node the way `torana start` does and checks that
//  - every transaction ever announced is in the ledger at the announced height,
//  - every announced (height, block hash) pair is unchanged,
//  - the workload's supply is conserved: sum of balances = total_quantity = the minted amount,
//  - the live state root (persisted state + replayed tail) equals a full rebuild from the blocks alone
//    (`verifyChain`, the logic of `torana verify`: signatures, certificates, re-execution).

import assert from 'node:assert/strict';
import { verifyItemsInline } from '../../src/crypto/verify-batch.js';
import { blockHash } from '../../src/model/block.js';
import { rescale } from '../../src/model/numeric.js';
import { nodeFiles } from '../../src/node/files.js';
import { decodeLimitsOf, loadNodeConfig } from '../../src/node/load-config.js';
import { Node } from '../../src/node/node.js';
import { verifyChain } from '../../src/node/verify-chain.js';
import { fromHex, toHex } from '../../src/util/hex.js';
import type { ChildRun } from './harness.js';
import { MINTED_TOTAL, WORKLOAD_DEFINITION, WORKLOAD_SCALE } from './workload.js';

/** Everything announced across all runs on one directory. */
export class AnnouncedHistory {
  readonly txs = new Map<string, { height: number; blockHash: string }>();
  readonly blocks = new Map<number, string>();
  /** Announcements that contradict earlier ones: a changed block hash or a moved transaction. */
  readonly conflicts: string[] = [];

  add(run: ChildRun): void {
    for (const a of run.announced) {
      const seenBlock = this.blocks.get(a.height);
      if (seenBlock !== undefined && seenBlock !== a.blockHash)
        this.conflicts.push(`height ${a.height} announced as ${seenBlock}, later as ${a.blockHash}`);
      this.blocks.set(a.height, a.blockHash);
      const seenTx = this.txs.get(a.txHash);
      if (seenTx !== undefined && seenTx.height !== a.height)
        this.conflicts.push(`tx ${a.txHash} announced at ${seenTx.height}, later at ${a.height}`);
      this.txs.set(a.txHash, { height: a.height, blockHash: a.blockHash });
    }
  }
}

export interface RecoveryReport {
  height: number;
  truncatedTailBytes: number;
  blocksChecked: number;
  txsChecked: number;
  /** Announced transactions whose block recorded a rejection (the workload's overdrafts). */
  rejectedSeen: number;
  /** Announced transactions missing or found at another height: must stay empty. */
  lost: string[];
  /** Announced heights whose block hash differs now: must stay empty. */
  changedBlocks: number[];
  supply: { sum: bigint; total: bigint } | undefined;
  liveRoot: string;
  rebuiltRoot: string;
  rebuiltHeight: number;
}

async function checkAnnounced(node: Node, history: AnnouncedHistory, r: RecoveryReport): Promise<void> {
  // Grouped by height so each block is read and decoded once (a restarted ledger caches none).
  const byHeight = new Map<number, string[]>();
  for (const [hash, want] of history.txs) {
    const list = byHeight.get(want.height) ?? [];
    list.push(hash);
    byHeight.set(want.height, list);
  }
  for (const [height, want] of history.blocks) {
    const block = await node.ledger.block(height);
    if (block === undefined || toHex(blockHash(block.header)) !== want) r.changedBlocks.push(height);
    r.blocksChecked++;
    for (const hash of byHeight.get(height) ?? []) {
      const loc = node.ledger.locate(fromHex(hash, 32)!);
      if (loc === undefined || loc.height !== height) {
        r.lost.push(hash);
        continue;
      }
      if (block?.results[loc.index]?.kind === 'Rejected') r.rejectedSeen++;
      r.txsChecked++;
    }
  }
}

function supplyOf(node: Node): RecoveryReport['supply'] {
  const def = node.ledger.state.assetDefinition(WORKLOAD_DEFINITION);
  if (def === undefined) return undefined;
  let sum = 0n;
  for (const asset of node.ledger.state.holdersOfDefinition(WORKLOAD_DEFINITION)) {
    const v = rescale(asset.value, WORKLOAD_SCALE);
    assert.ok(v !== undefined, `balance ${asset.id} does not fit scale ${WORKLOAD_SCALE}`);
    sum += v;
  }
  const total = rescale(def.totalQuantity, WORKLOAD_SCALE);
  assert.ok(total !== undefined, 'total_quantity does not fit the definition scale');
  return { sum, total };
}

/** Reopens the node in this process, runs every check, stops it, then rebuilds from the block log. */
export async function checkRecovery(dir: string, history: AnnouncedHistory): Promise<RecoveryReport> {
  const config = await loadNodeConfig({ dir, overrides: { 'verify.threads': 0 } });
  const node = await Node.start({ dir, config });
  const r: RecoveryReport = {
    height: node.ledger.height(),
    truncatedTailBytes: node.openReport.truncatedTailBytes,
    blocksChecked: 0,
    txsChecked: 0,
    rejectedSeen: 0,
    lost: [],
    changedBlocks: [],
    supply: undefined,
    liveRoot: '',
    rebuiltRoot: '',
    rebuiltHeight: 0,
  };
  try {
    await checkAnnounced(node, history, r);
    r.supply = supplyOf(node);
    r.liveRoot = toHex(node.ledger.state.stateRoot());
  } finally {
    await node.stop();
  }
  const rebuilt = await verifyChain({
    dir: nodeFiles(dir).data,
    chainId: config.node.chainId,
    validatorSet: node.validatorSet,
    decodeLimits: decodeLimitsOf(config),
    verifySignatures: async (items) => verifyItemsInline(items),
  });
  r.rebuiltRoot = rebuilt.stateRoot;
  r.rebuiltHeight = rebuilt.height;
  return r;
}

/** Fails with the run's label (seed, round) when anything announced was lost or changed. */
export function assertRecovered(r: RecoveryReport, history: AnnouncedHistory, label: string): void {
  assert.deepEqual(history.conflicts, [], `${label}: contradicting announcements`);
  assert.deepEqual(r.lost.slice(0, 5), [], `${label}: ${r.lost.length} announced transactions lost`);
  assert.deepEqual(r.changedBlocks.slice(0, 5), [], `${label}: block hashes changed`);
  assert.equal(r.rebuiltHeight, r.height, `${label}: rebuild saw another height`);
  assert.equal(r.rebuiltRoot, r.liveRoot, `${label}: state root differs from a rebuild from blocks`);
  if (history.txs.size > 0) assert.ok(r.supply, `${label}: workload definition missing after announcements`);
  if (r.supply !== undefined) {
    assert.equal(r.supply.sum, r.supply.total, `${label}: balances do not sum to total_quantity`);
    assert.equal(r.supply.total, MINTED_TOTAL, `${label}: total_quantity differs from the minted amount`);
  }
}

/** The figure line every crash test prints ("Each test prints its figure"). */
export function figureLine(
  name: string,
  f: { kills: number; history: AnnouncedHistory; lost: number; blocks: number; extra?: string },
): string {
  return `[figure] ${name}: kills=${f.kills} announced=${f.history.txs.size} lost=${f.lost} blocks_checked=${f.blocks}${f.extra === undefined ? '' : ` ${f.extra}`}`;
}

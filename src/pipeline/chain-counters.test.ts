// The chain counters (GET /status `blocks_non_empty`, `txs_approved`, `txs_rejected`) survive a
// restart: kept in the state store with each block, replayed with the blocks the state had not
// recorded, and counted from the blocks once for a store written before they were kept.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  admin,
  certify,
  commitGenesis,
  MEMORY_CHAIN_ID,
  type MemoryDisk,
  memoryPipeline,
  newDisk,
  openMemoryLedger,
} from '../../test/helpers/memory-chain.js';
import { buildTx, newAccount } from '../../test/helpers/tx.js';
import { transactionHash } from '../model/transaction.js';
import { toHex } from '../util/hex.js';
import { CHAIN_COUNTERS_KEY, decodeCounters, encodeCounters } from './chain-counters.js';
import type { Ledger } from './ledger.js';

const empty = new Map();

/** One block of `count` transactions registering `id` (the second and later ones are rejected). */
async function commitRegistrations(ledger: Ledger, id: string, count: number, nonce: number) {
  const txs = Array.from({ length: count }, (_, i) =>
    buildTx(admin, [{ kind: 'RegisterAccount', id, metadata: empty }], {
      chainId: MEMORY_CHAIN_ID,
      creationTimeMs: 1_700_000_000_500,
      nonce: nonce + i,
    }),
  );
  const executed = ledger.execute({
    view: 0,
    creationTimeMs: 1_700_000_001_000 + nonce,
    transactions: txs,
    hashes: txs.map(transactionHash),
  });
  await ledger.commit(executed, certify(executed.header.height, executed.hash));
}

/** Genesis (1 approved), then a block of 1 approved + 2 rejected, an empty block, a block of 1. */
async function buildChain(disk: MemoryDisk): Promise<Ledger> {
  const { ledger } = await openMemoryLedger(disk);
  await commitGenesis(ledger);
  await commitRegistrations(ledger, newAccount('system', 31).id, 3, 1);
  await commitRegistrations(ledger, newAccount('system', 32).id, 0, 10);
  await commitRegistrations(ledger, newAccount('system', 33).id, 1, 20);
  return ledger;
}

const EXPECTED = { blocksNonEmpty: 3, txsApproved: 3, txsRejected: 2 };

describe('chain counters', () => {
  it('round-trips and refuses bytes of another version', () => {
    const c = { blocksNonEmpty: 2 ** 40 + 3, txsApproved: 7, txsRejected: 0 };
    assert.deepEqual(decodeCounters(encodeCounters(c)), c);
    const other = encodeCounters(c);
    other[0] = 2;
    assert.equal(decodeCounters(other), undefined);
    assert.equal(decodeCounters(undefined), undefined);
  });

  it('are counted as blocks commit and are the same after a restart (ledger and pipeline)', async () => {
    const disk = newDisk();
    const ledger = await buildChain(disk);
    assert.equal(ledger.height(), 4);
    assert.deepEqual(ledger.counters(), EXPECTED);
    await ledger.close();
    const again = (await openMemoryLedger(disk)).ledger;
    assert.deepEqual(again.counters(), EXPECTED);
    const c = memoryPipeline(again).counters;
    assert.deepEqual(
      { blocksNonEmpty: c.blocksNonEmpty, txsApproved: c.txsApproved, txsRejected: c.txsRejected },
      EXPECTED,
    );
    await again.close();
  });

  it('are rebuilt from the blocks for a state store that does not have them', async () => {
    const disk = newDisk();
    await (await buildChain(disk)).close();
    assert.ok(disk.state.entries.delete(toHex(CHAIN_COUNTERS_KEY)), 'the store held the counters');
    const again = (await openMemoryLedger(disk)).ledger;
    assert.deepEqual(again.counters(), EXPECTED);
    await again.close();
  });
});

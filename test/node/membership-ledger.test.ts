// Membership across ledgers (docs/data-model.md "Peers"; docs/design/testing.md "Durability discipline"): two
// ledgers that commit the same blocks of RegisterPeer / UnregisterPeer reach the same state roots and
// validator sets, and a ledger rebuilt from its block log alone (state deleted) has the same peer rows.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keyLifecycle, validatorSetAt } from '../../src/consensus/membership.js';
import type { Instruction } from '../../src/model/instructions.js';
import { transactionHash } from '../../src/model/transaction.js';
import type { Ledger } from '../../src/pipeline/ledger.js';
import { MemoryStateMedium } from '../../src/storage/memory-state-backend.js';
import { toHex } from '../../src/util/hex.js';
import { key, registerPeer } from '../fixtures/state/state-fixture.js';
import {
  admin,
  certify,
  commitGenesis,
  GENESIS_TIME_MS,
  MEMORY_CHAIN_ID,
  newDisk,
  openMemoryLedger,
} from '../helpers/memory-chain.js';
import { buildTx } from '../helpers/tx.js';

const BLOCKS: Instruction[][] = [
  [registerPeer(0x50), registerPeer(0x51)],
  [registerPeer(0x52)],
  [{ kind: 'UnregisterPeer', peer: key(0x50) }],
  [{ kind: 'UnregisterPeer', peer: key(0x52) }, registerPeer(0x53)],
];
const TXS = BLOCKS.map((instructions, i) =>
  buildTx(admin, instructions, {
    chainId: MEMORY_CHAIN_ID,
    creationTimeMs: GENESIS_TIME_MS + i + 1,
    nonce: i,
  }),
);

/** Commits TXS one block each; returns "state root / next validator-set hash" per block. */
async function runBlocks(ledger: Ledger): Promise<string[]> {
  const trace: string[] = [];
  for (const [i, tx] of TXS.entries()) {
    const executed = ledger.execute({
      view: 0,
      creationTimeMs: GENESIS_TIME_MS + i + 1,
      transactions: [tx],
      hashes: [transactionHash(tx)],
    });
    assert.equal(executed.results[0]?.kind, 'Committed', JSON.stringify(executed.results[0]));
    await ledger.commit(executed, certify(ledger.height() + 1, executed.hash));
    const next = validatorSetAt(ledger.state, ledger.height() + 1);
    trace.push(`${toHex(executed.header.stateRoot)} ${toHex(next.hash)}`);
  }
  return trace;
}

describe('membership across ledgers', () => {
  it('same blocks, same state roots and validator sets; a rebuild from blocks agrees', async () => {
    const diskA = newDisk();
    const diskB = newDisk();
    const { ledger: a } = await openMemoryLedger(diskA);
    const { ledger: b } = await openMemoryLedger(diskB);
    await commitGenesis(a);
    await commitGenesis(b);
    const traceA = await runBlocks(a);
    assert.deepEqual(await runBlocks(b), traceA);
    const tip = a.height();
    assert.deepEqual(
      validatorSetAt(a.state, tip + 1).validators.map((v) => v.peer),
      [key(0x51), key(0x53)],
    );
    const history = keyLifecycle(a.state);
    assert.deepEqual(
      history.map((k) => [k.peerId, k.registeredAt, k.disabledAt]),
      [
        [key(0x50), 2, 4],
        [key(0x51), 2, undefined],
        [key(0x52), 3, 5],
        [key(0x53), 5, undefined],
      ],
    );
    await a.close();

    // The state deleted: opening replays every block from the log.
    const { ledger: rebuilt } = await openMemoryLedger({
      blocks: diskA.blocks,
      state: new MemoryStateMedium(),
    });
    assert.equal(rebuilt.height(), tip);
    assert.deepEqual(keyLifecycle(rebuilt.state), history);
    assert.equal(toHex(validatorSetAt(rebuilt.state, 3).hash), toHex(validatorSetAt(b.state, 3).hash));
    assert.deepEqual(
      validatorSetAt(rebuilt.state, 3).validators.map((v) => v.peer),
      [key(0x50), key(0x51)],
    );
    await rebuilt.close();
    await b.close();
  });
});

// A block that breaks a commit invariant is refused before a byte reaches the block log: wrong height,
// wrong parent, an executed state root that is not the header's, a certificate for another block. With
// the single-peer engine driving a pipeline over a ledger on disk, the failed assertion stops the engine
// (onFatal) and the reopened block log ends at the last good block.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { certify, commitGenesis, newDisk, openMemoryLedger } from '../../test/helpers/memory-chain.js';
import { blockHash } from '../model/block.js';
import { AssertionError } from '../util/assert.js';
import { bytesEqual } from '../util/hex.js';
import type { ExecutedBlock } from './executed-block.js';
import type { Ledger } from './ledger.js';

const emptyBlock = (ledger: Ledger): ExecutedBlock =>
  ledger.execute({ view: 0, creationTimeMs: 1_700_000_001_000, transactions: [], hashes: [] });

/** The executed block with a changed header, re-hashed so that only the planted field is wrong. */
function withHeader(executed: ExecutedBlock, change: Partial<ExecutedBlock['header']>): ExecutedBlock {
  const header = { ...executed.header, ...change };
  return { ...executed, header, hash: blockHash(header) };
}

describe('Ledger.commit: pre- and postconditions', () => {
  const plants: [string, (e: ExecutedBlock) => { executed: ExecutedBlock; cert?: number }, RegExp][] = [
    ['height not tip + 1', (e) => ({ executed: withHeader(e, { height: 3 }), cert: 3 }), /tip \+ 1/],
    [
      'parent not the tip',
      (e) => ({ executed: withHeader(e, { prevHash: new Uint8Array(32).fill(7) }) }),
      /parent/,
    ],
    [
      'state root not the executed one',
      (e) => ({ executed: withHeader(e, { stateRoot: new Uint8Array(32).fill(9) }) }),
      /state root/,
    ],
    ['certificate for another height', (e) => ({ executed: e, cert: 5 }), /certificate/],
    ['transaction count off', (e) => ({ executed: withHeader(e, { transactionCount: 1 }) }), /transactions/],
  ];
  for (const [name, plant, message] of plants) {
    it(`refuses a block whose ${name}, and writes nothing`, async () => {
      const { ledger } = await openMemoryLedger(newDisk());
      await commitGenesis(ledger);
      const good = emptyBlock(ledger);
      const { executed, cert } = plant(good);
      await assert.rejects(
        ledger.commit(executed, certify(cert ?? executed.header.height, executed.hash)),
        (e: unknown) => e instanceof AssertionError && message.test(e.message),
      );
      assert.equal(ledger.height(), 1);
      // The genuine block still commits: the refusal came from the planted field alone.
      await ledger.commit(good, certify(2, good.hash));
      assert.equal(ledger.height(), 2);
      assert.ok(bytesEqual(ledger.tipHash(), good.hash));
    });
  }

  it('refuses a certificate naming another block hash at the right height', async () => {
    const { ledger } = await openMemoryLedger(newDisk());
    await commitGenesis(ledger);
    const good = emptyBlock(ledger);
    await assert.rejects(ledger.commit(good, certify(2, new Uint8Array(32))), /certificate/);
    assert.equal(ledger.height(), 1);
  });
});

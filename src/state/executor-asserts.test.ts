// The executor's atomicity invariant: every transaction starts with no undo entries left open by an
// earlier one (each was released or rolled back). A planted open entry stops the next apply.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  admin,
  commitGenesis,
  MEMORY_CHAIN_ID,
  newDisk,
  openMemoryLedger,
} from '../../test/helpers/memory-chain.js';
import { buildTx } from '../../test/helpers/tx.js';
import { transactionHash } from '../model/transaction.js';
import { AssertionError } from '../util/assert.js';
import { BlockExecution } from './executor.js';

describe('BlockExecution.apply: no open undo entries between transactions', () => {
  it('applies normally, and refuses once an undo entry is left open', async () => {
    const { ledger } = await openMemoryLedger(newDisk());
    await commitGenesis(ledger);
    const ctx = { height: 2, blockTimeMs: 1_700_000_001_000, chainId: MEMORY_CHAIN_ID, genesis: false };
    const tx = (nonce: number) =>
      buildTx(admin, [{ kind: 'Log', level: { kind: 'Info' }, message: `m${nonce}` }], {
        chainId: MEMORY_CHAIN_ID,
        creationTimeMs: ctx.blockTimeMs,
        nonce,
      });
    const exec = new BlockExecution(ledger.state, ctx);
    assert.equal(exec.apply(tx(0), transactionHash(tx(0))).result.kind, 'Committed');
    // Planted: an undo entry a buggy handler path forgot to release.
    const journal = (exec as unknown as { view: { journal: { record(e: unknown): void } } }).view.journal;
    journal.record({ view: { restore() {} }, id: 'x', had: false, prev: undefined });
    assert.throws(
      () => exec.apply(tx(1), transactionHash(tx(1))),
      (e: unknown) => e instanceof AssertionError && /undo entries/.test(e.message),
    );
  });
});

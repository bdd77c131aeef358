// A full queue refuses a new transaction before its signature is verified (the costliest admission
// check), still naming it by hash; a duplicate is still answered as a duplicate, and a body that does not
// decode still gets its codec error.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  admin,
  commitGenesis,
  GENESIS_TIME_MS,
  MEMORY_CHAIN_ID,
  memoryPipeline,
  newDisk,
  openMemoryLedger,
  verifyEd25519,
} from '../../test/helpers/memory-chain.js';
import { buildTx, frameTx } from '../../test/helpers/tx.js';
import { transactionHash } from '../model/transaction.js';
import { toHex } from '../util/hex.js';

const NOW = GENESIS_TIME_MS + 1_000;
const tx = (n: number) =>
  buildTx(admin, [{ kind: 'Log', level: { kind: 'Info' }, message: `q${n}` }], {
    chainId: MEMORY_CHAIN_ID,
    creationTimeMs: NOW,
  });

describe('pipeline submit with a full queue', () => {
  it('refuses before verifying the signature, and keeps duplicates and codec errors as they were', async () => {
    const { ledger } = await openMemoryLedger(newDisk());
    await commitGenesis(ledger);
    let verified = 0;
    const pipeline = memoryPipeline(ledger, undefined, {
      queue: { capacity: 3, perAccountMax: 100, expiryMs: 60_000 },
      verify: async (k, m, s) => {
        verified++;
        return verifyEd25519(k, m, s);
      },
    });
    for (let i = 0; i < 3; i++) assert.equal((await pipeline.submit(frameTx(tx(i)))).ok, true);
    assert.equal(verified, 3);
    const extra = tx(3);
    const r = await pipeline.submit(frameTx(extra));
    assert.ok(!r.ok && r.kind === 'queue_full', JSON.stringify(r));
    assert.equal(r.code, 'queue_full');
    assert.equal(r.hashHex, toHex(transactionHash(extra)));
    assert.deepEqual([r.depth, r.capacity], [3, 3]);
    assert.equal(verified, 3, 'no signature verified for a transaction the queue refuses');
    assert.equal(pipeline.refusedBeforeSignature, 1);
    // A copy of a queued one is still a duplicate, not a full queue.
    const dup = await pipeline.submit(frameTx(tx(0)));
    assert.ok(!dup.ok && dup.kind === 'duplicate' && dup.code === 'already_enqueued');
    // Garbage still gets its decoding error.
    const garbage = await pipeline.submit(new Uint8Array([1, 2, 3]));
    assert.ok(!garbage.ok && garbage.kind === 'codec');
  });
});

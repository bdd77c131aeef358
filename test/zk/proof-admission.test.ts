// Proofs verified at admission in the proof pool's worker (src/zk/proof-pool.ts), their verdicts
// cached (src/state/proof-verdicts.ts), and execution of the admitted transaction verifying nothing
// itself — with the same results and state root as a pipeline that verifies every proof at execution.
// A real worker thread (the pool is what is tested); proves once (about a second).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Instruction } from '../../src/model/instructions.js';
import { type SignedTransaction, transactionHash } from '../../src/model/transaction.js';
import {
  createFeeBind,
  type NoteSpendValue,
  noteOwnerHash,
  proveNoteSpend,
  releaseProver,
  rosterCommitment,
} from '../../src/modules/conference/sdk-zk.js';
import type { Ledger } from '../../src/pipeline/ledger.js';
import { toHex } from '../../src/util/hex.js';
import { fieldFromHex, fieldToHex } from '../../src/zk/field.js';
import { ProofVerifyPool } from '../../src/zk/proof-pool.js';
import { CALL, create, manifest, RELAYS, registerRelay } from '../fixtures/state/conference-fixture.js';
import {
  ADMIN,
  acc,
  amount,
  CAROL,
  genesisInstructions,
  ROSE,
  outcome as resultCode,
  tx,
} from '../fixtures/state/state-fixture.js';
import {
  certify,
  GENESIS_TIME_MS,
  ManualClock,
  MEMORY_CHAIN_ID,
  memoryPipeline,
  newDisk,
  openMemoryLedger,
} from '../helpers/memory-chain.js';
import { buildTx, frameTx, newAccount } from '../helpers/tx.js';
import { devZkParameters } from '../helpers/zk.js';

const POOL = acc(9);
const TREASURY = acc(10);
const HOST = newAccount('wonderland', 41);
const NOTE = { value: 1000n, secret: 7n, blinding: 8n };

async function commitBlock(ledger: Ledger, txs: SignedTransaction[]): Promise<void> {
  const executed = ledger.execute({
    view: 0,
    creationTimeMs: GENESIS_TIME_MS + ledger.height() * 1_000,
    transactions: txs,
    hashes: txs.map((t) => transactionHash(t)),
  });
  assert.deepEqual(
    executed.results.map(resultCode),
    txs.map(() => 'Committed'),
  );
  await ledger.commit(executed, certify(ledger.height() + 1, executed.hash));
}

/** Genesis, the native asset, the zk parameters, three relays and HOST's shielded note of 10.00. */
async function setupLedger(): Promise<Ledger> {
  const { ledger } = await openMemoryLedger(newDisk());
  const none = () => new Map();
  await commitBlock(ledger, [tx(ADMIN, genesisInstructions())]);
  await commitBlock(ledger, [
    tx(ADMIN, [
      { kind: 'RegisterAccount', id: CAROL, metadata: none() },
      { kind: 'RegisterAccount', id: HOST.id, metadata: none() },
      { kind: 'RegisterAccount', id: POOL, metadata: none() },
      { kind: 'RegisterAccount', id: TREASURY, metadata: none() },
      {
        kind: 'RegisterAssetDefinition',
        id: ROSE,
        scale: 2,
        mintable: { kind: 'Infinitely' },
        metadata: none(),
      },
      { kind: 'SetParameter', parameter: { kind: 'Custom', id: 'native_asset', payload: ROSE } },
      { kind: 'MintAsset', asset: `${ROSE}#${HOST.id}`, amount: amount('100') },
      ...devZkParameters({ pool: POOL, fee: '2.50', treasury: TREASURY }),
    ]),
  ]);
  const ownerHash = fieldToHex(noteOwnerHash(NOTE.secret, NOTE.blinding));
  await commitBlock(ledger, [
    tx(
      CAROL,
      RELAYS.map((r, i) => registerRelay(r, i)),
    ),
    tx(HOST.id, [{ kind: 'ShieldAsset', amount: amount('10.00'), ownerHash }]),
  ]);
  return ledger;
}

const privateCreate = (s: NoteSpendValue): Instruction =>
  create(HOST.id, {
    privacy: { kind: 'ZkRosterV1' },
    rosterCommitments: [rosterCommitment(5n)].map(fieldToHex),
    manifest: manifest(4_000_000_000_000n),
    fee: {
      root: fieldToHex(s.root),
      nullifier: fieldToHex(s.nullifier),
      changeCommitment: fieldToHex(s.changeCommitment),
      proof: s.proof,
    },
  });

describe('Groth16 proofs verified at admission, in the proof pool', () => {
  const pool = new ProofVerifyPool({ threads: 1 });
  let body: Uint8Array;

  before(async () => {
    const ledger = await setupLedger();
    const spend = await proveNoteSpend({
      note: NOTE,
      poolLeaves: ledger.state.shieldedPool().leaves.map((h) => fieldFromHex(h)!),
      fee: 250n,
      bind: createFeeBind(CALL, HOST.id),
      change: { secret: 11n, blinding: 12n },
    });
    const clock = new ManualClock();
    body = frameTx(
      buildTx(HOST, [privateCreate(spend)], { chainId: MEMORY_CHAIN_ID, creationTimeMs: clock.nowMs() }),
    );
  });
  after(async () => {
    await pool.close();
    await releaseProver();
  });

  /** Submits the transaction, executes it alone in the next block: its outcome and the state root. */
  async function admitAndExecute(verifyProofs: boolean) {
    const clock = new ManualClock();
    const pipeline = memoryPipeline(await setupLedger(), clock, {
      ...(verifyProofs ? { verifyProofs: (claims) => pool.verify(claims) } : {}),
    });
    const submitted = await pipeline.submit(body);
    assert.ok(submitted.ok, JSON.stringify(submitted));
    const cachedAtAdmission = pipeline.proofVerdicts.stats().size;
    const executed = pipeline.execute(0, clock.nowMs(), pipeline.takeTransactions(10));
    return {
      outcomes: executed.results.map(resultCode),
      root: toHex(executed.header.stateRoot),
      cachedAtAdmission,
      atExecution: pipeline.proofVerdicts.stats(),
    };
  }

  it('verifies the admitted transaction’s proof in the pool; execution verifies nothing itself', async () => {
    const pooled = await admitAndExecute(true);
    assert.equal(pool.stats().claimsVerified, 1, 'the fee spend’s proof, verified by the worker');
    assert.equal(pooled.cachedAtAdmission, 1);
    assert.deepEqual(pooled.outcomes, ['Committed']);
    assert.deepEqual(pooled.atExecution, { size: 1, hits: 1, slowVerifications: 0 });
    // The same transaction with no pool: execution verifies the proof itself, to the same block.
    const inline = await admitAndExecute(false);
    assert.equal(inline.cachedAtAdmission, 0);
    assert.deepEqual(inline.atExecution, { size: 1, hits: 0, slowVerifications: 1 });
    assert.deepEqual(inline.outcomes, pooled.outcomes);
    assert.equal(inline.root, pooled.root);
  });
});

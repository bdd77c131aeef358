// Execution with proof verdicts computed off its path (src/state/proof-verdicts.ts): the same block of
// real proofs — a private create whose fee spend is bound to another account (zk_proof_invalid), then
// the valid one — executed with no cache, a cold cache, a cache warmed as admission warms it (a
// speculative run records the claims, the pool's WebAssembly verifier answers them) and a poisoned
// cache gives the same results and state root every time; warm, execution verifies nothing itself.
// Proves once (about a second).

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Json } from '../../src/codec/codec.js';
import type { Instruction } from '../../src/model/instructions.js';
import type { SignedTransaction } from '../../src/model/transaction.js';
import {
  createFeeBind,
  type NoteSpendValue,
  noteOwnerHash,
  proveNoteSpend,
  releaseProver,
  rosterCommitment,
} from '../../src/modules/conference/sdk-zk.js';
import { BlockExecution } from '../../src/state/executor.js';
import {
  claimsOf,
  type ProofClaim,
  ProofVerdictCache,
  type ProofVerdicts,
  proofCount,
} from '../../src/state/proof-verdicts.js';
import { toHex } from '../../src/util/hex.js';
import { fieldFromHex, fieldToHex } from '../../src/zk/field.js';
import { WasmGroth16 } from '../../src/zk/groth16-wasm.js';
import { CALL, conferenceWorld, create, manifest } from '../fixtures/state/conference-fixture.js';
import {
  ADMIN,
  ALICE,
  acc,
  amount,
  BOB,
  type Chain,
  expectCode,
  outcome,
  tx,
} from '../fixtures/state/state-fixture.js';
import { devZkParameters } from '../helpers/zk.js';

const POOL = acc(9);
const TREASURY = acc(10);
const NOTE = { value: 1000n, secret: 7n, blinding: 8n };
const ROSTER = [101n, 202n].map(rosterCommitment);
const ROSTER_VK = JSON.parse(
  readFileSync(new URL('../../zk/artifacts/roster.vkey.json', import.meta.url), 'utf8'),
) as Json;

/** Keys set, the pool configured, BOB's note of 10.00 shielded: the same state on every call. */
function setup(): Chain {
  const chain = conferenceWorld();
  const none = () => new Map();
  expectCode(
    chain,
    ADMIN,
    [
      { kind: 'RegisterAccount', id: POOL, metadata: none() },
      { kind: 'RegisterAccount', id: TREASURY, metadata: none() },
      ...devZkParameters({ pool: POOL, fee: '2.50', treasury: TREASURY }),
    ],
    'Committed',
  );
  const ownerHash = fieldToHex(noteOwnerHash(NOTE.secret, NOTE.blinding));
  expectCode(chain, BOB, [{ kind: 'ShieldAsset', amount: amount('10.00'), ownerHash }], 'Committed');
  return chain;
}

const privateCreate = (billing: string, s: NoteSpendValue): Instruction =>
  create(billing, {
    privacy: { kind: 'ZkRosterV1' },
    rosterCommitments: ROSTER.map(fieldToHex),
    manifest: manifest(),
    fee: {
      root: fieldToHex(s.root),
      nullifier: fieldToHex(s.nullifier),
      changeCommitment: fieldToHex(s.changeCommitment),
      proof: s.proof,
    },
  });

interface Run {
  outcomes: string[];
  root: string;
}

function run(chain: Chain, txs: SignedTransaction[], proofs?: ProofVerdicts): Run {
  const out = chain.block(txs, proofs);
  return { outcomes: out.results.map(outcome), root: toHex(out.root) };
}

/** The claims each transaction's execution checks, as admission learns them (speculative runs). */
function claimsOfBlock(chain: Chain, txs: SignedTransaction[]): ProofClaim[] {
  const context = { height: chain.height + 1, blockTimeMs: 0, chainId: 'test-chain', genesis: false };
  return txs.flatMap((t) =>
    claimsOf(proofCount(t.payload.instructions), (port) =>
      new BlockExecution(chain.state, context, { proofs: port }).apply(t, new Uint8Array(32)),
    ),
  );
}

describe('proof verdicts computed off the execution path', () => {
  let wasm: WasmGroth16;
  let txs: SignedTransaction[];
  let baseline: Run;

  before(async () => {
    wasm = await WasmGroth16.load();
    const leaves = setup()
      .state.shieldedPool()
      .leaves.map((h) => fieldFromHex(h)!);
    const spend = await proveNoteSpend({
      note: NOTE,
      poolLeaves: leaves,
      fee: 250n,
      bind: createFeeBind(CALL, BOB),
      change: { secret: 11n, blinding: 12n },
    });
    // ALICE's copy of BOB's spend is bound to BOB: zk_proof_invalid. Then BOB's own: Committed.
    txs = [tx(ALICE, [privateCreate(ALICE, spend)], 1), tx(BOB, [privateCreate(BOB, spend)], 2)];
    baseline = run(setup(), txs);
    assert.deepEqual(baseline.outcomes, ['zk_proof_invalid', 'Committed']);
  });
  after(async () => {
    await wasm?.close();
    await releaseProver();
  });

  it('a cold cache gives the same results and root, each proof verified by execution itself', () => {
    const cold = new ProofVerdictCache();
    assert.deepEqual(run(setup(), txs, cold), baseline);
    assert.deepEqual(cold.stats(), { size: 2, hits: 0, slowVerifications: 2 });
  });

  it('warmed as admission warms it, the same results and root with no verification at execution', () => {
    const chain = setup();
    const claims = claimsOfBlock(chain, txs);
    assert.equal(claims.length, 2, 'one fee spend per transaction');
    const warm = new ProofVerdictCache();
    for (const c of claims) warm.add(c, wasm.verify(c.key, c.proof, c.signals));
    assert.deepEqual(run(chain, txs, warm), baseline);
    assert.deepEqual(warm.stats(), { size: 2, hits: 2, slowVerifications: 0 });
  });

  it('an entry for another key, other public inputs or another proof is never used', () => {
    const chain = setup();
    const [forged, valid] = claimsOfBlock(chain, txs) as [ProofClaim, ProofClaim];
    const p = forged.proof;
    const poisoned = new ProofVerdictCache();
    // Each differs from the forged claim in one part only, and each says "valid".
    poisoned.add({ ...forged, proof: { ...p, a: p.c, c: p.a } }, true);
    poisoned.add({ ...forged, signals: valid.signals }, true);
    poisoned.add({ ...forged, key: ROSTER_VK }, true);
    poisoned.add({ ...forged, signals: [...forged.signals.slice(0, -1), forged.signals.at(-1)! + 1n] }, true);
    assert.deepEqual(run(chain, txs, poisoned), baseline);
    // The forged claim missed and was verified by execution; the valid one hit (its own entry).
    assert.deepEqual(poisoned.stats(), { size: 5, hits: 1, slowVerifications: 1 });
  });

  it('an entry for exactly the claim decides (the cache is consulted, so only the pool may fill it)', () => {
    const chain = setup();
    const [forged] = claimsOfBlock(chain, txs) as [ProofClaim];
    const lying = new ProofVerdictCache();
    lying.add(forged, true);
    // Only a wrong verifier could write this entry: the outcome changes, which the test above rules out
    // for every entry that is not exactly the claim.
    assert.equal(run(chain, txs, lying).outcomes[0], 'Committed');
  });
});

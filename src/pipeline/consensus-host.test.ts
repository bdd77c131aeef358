// The block-shaped host port (consensus-host.ts) between two pipelines over the same genesis: one
// proposes, the other re-executes, refuses each tampered field with its code, commits (purging its
// own queue of the block's transactions), syncs committed blocks, and releases taken transactions.

import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import {
  admin,
  certify,
  commitGenesis,
  ManualClock,
  MEMORY_CHAIN_ID,
  memoryPipeline,
  newDisk,
  openMemoryLedger,
  verifyEd25519,
} from '../../test/helpers/memory-chain.js';
import { buildTx, frameTx } from '../../test/helpers/tx.js';
import { decode, encode } from '../codec/frame.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import {
  type Block,
  BlockCodec,
  blockHash,
  encodeProposedBlock,
  merkleRoot,
  type ProposedBlock,
  ProposedBlockCodec,
} from '../model/block.js';
import type { EventEnvelope } from '../model/events.js';
import type { Instruction } from '../model/instructions.js';
import { numeric } from '../model/numeric.js';
import { type SignedTransaction, transactionHash } from '../model/transaction.js';
import { toHex } from '../util/hex.js';
import type { ExecutedBlock } from './executed-block.js';
import type { Pipeline } from './pipeline.js';
import { HostError } from './proposal-check.js';

interface Peer {
  pipeline: Pipeline<string>;
  clock: ManualClock;
  readonly verifications: number;
}

async function peer(): Promise<Peer> {
  const { ledger } = await openMemoryLedger(newDisk());
  await commitGenesis(ledger);
  const clock = new ManualClock();
  const counter = { n: 0 };
  // A counting signature check, and a roster that names the state version it was computed from.
  const pipeline = memoryPipeline<string>(ledger, clock, {
    verify: async (k, m, s) => {
      counter.n++;
      return verifyEd25519(k, m, s);
    },
    validatorSetOf: (state) => `roster at version ${state.version}`,
  });
  return {
    pipeline,
    clock,
    get verifications() {
      return counter.n;
    },
  };
}

let nonce = 0;
function tx(clock: ManualClock, message = 'hi'): SignedTransaction {
  return buildTx(admin, [{ kind: 'Log', level: { kind: 'Info' }, message }], {
    chainId: MEMORY_CHAIN_ID,
    creationTimeMs: clock.nowMs(),
    nonce: ++nonce,
  });
}

async function submit(p: Peer, t: SignedTransaction): Promise<void> {
  const r = await p.pipeline.submit(frameTx(t));
  assert.ok(r.ok, JSON.stringify(r));
}

/** The leader's side: take the queue, execute, encode as a proposal. */
function propose(p: Peer, view = 0): { executed: ExecutedBlock; bytes: Uint8Array } {
  const txs = p.pipeline.takeTransactions(100);
  const executed = p.pipeline.execute(view, p.clock.nowMs(), txs);
  const bytes = encodeProposedBlock(
    { header: executed.header, transactions: executed.transactions },
    executed.encodedTransactions,
  );
  return { executed, bytes };
}

function proposalOf(bytes: Uint8Array): ProposedBlock {
  const d = decode(ProposedBlockCodec, bytes, DEFAULT_DECODE_LIMITS);
  assert.ok(d.ok);
  return d.value;
}

function tampered(bytes: Uint8Array, change: (b: ProposedBlock) => void): Uint8Array {
  const b = proposalOf(bytes);
  change(b);
  return encode(ProposedBlockCodec, b);
}

async function refusal(p: Peer, bytes: Uint8Array): Promise<string> {
  const v = await p.pipeline.executeProposed(bytes);
  assert.equal(v.ok, false, 'the proposal should be refused');
  return v.ok ? '' : v.reason;
}

describe('ConsensusHost: executeProposed', () => {
  let a: Peer;
  let b: Peer;
  beforeEach(async () => {
    [a, b] = [await peer(), await peer()];
    assert.deepEqual(a.pipeline.tipHash(), b.pipeline.tipHash(), 'the same genesis block');
  });

  it('accepts a block another pipeline built, verifying only signatures it has not seen', async () => {
    const seenByB = tx(a.clock, 'both');
    await submit(a, tx(a.clock, 'only a'));
    await submit(a, seenByB);
    await submit(b, seenByB);
    const before = b.verifications;
    const { executed, bytes } = propose(a);
    const v = await b.pipeline.executeProposed(bytes);
    assert.ok(v.ok, v.ok ? '' : `${v.reason}: ${v.detail}`);
    assert.deepEqual(v.executed.hash, executed.hash);
    assert.deepEqual(v.executed.header.stateRoot, executed.header.stateRoot);
    assert.equal(b.verifications - before, 1, 'one signature was new to b');
    // A second look (another view) verifies nothing again.
    assert.ok((await b.pipeline.executeProposed(bytes)).ok);
    assert.equal(b.verifications - before, 1);
  });

  it('refuses each tampered field with its reason', async () => {
    await submit(a, tx(a.clock, 'one'));
    await submit(a, tx(a.clock, 'two'));
    const { bytes } = propose(a);
    const cases: [string, (p: ProposedBlock) => void][] = [
      ['proposal_prev_hash', (p) => (p.header.prevHash = new Uint8Array(32).fill(1))],
      ['proposal_height', (p) => (p.header.height = 3)],
      ['proposal_state_root', (p) => (p.header.stateRoot = new Uint8Array(32).fill(2))],
      ['proposal_transactions_root', (p) => (p.header.transactionsRoot = new Uint8Array(32).fill(3))],
      ['proposal_results_root', (p) => (p.header.resultsRoot = new Uint8Array(32).fill(4))],
      ['proposal_transaction_count', (p) => (p.header.transactionCount = 1)],
      [
        'proposal_duplicate_transaction',
        (p) => {
          p.transactions = [p.transactions[0]!, p.transactions[0]!];
          p.header.transactionsRoot = merkleRoot(p.transactions.map(transactionHash));
        },
      ],
      [
        'proposal_bad_signature',
        (p) => {
          const t = p.transactions[1]!;
          const signature = t.signature.slice();
          signature[0]! ^= 1;
          p.transactions[1] = { ...t, signature };
          // The roots are made right, so only the signature check can refuse it.
          p.header.transactionsRoot = merkleRoot(p.transactions.map(transactionHash));
        },
      ],
    ];
    const tooMany = b.pipeline.blockMaxTransactions() + 1;
    cases.push([
      'proposal_too_many_transactions',
      (p) => {
        p.transactions = Array.from({ length: tooMany }, () => p.transactions[0]!);
        p.header.transactionCount = tooMany;
      },
    ]);
    for (const [reason, change] of cases)
      assert.equal(await refusal(b, tampered(bytes, change)), reason, reason);
    assert.equal(await refusal(b, bytes.subarray(0, bytes.length - 3)), 'proposal_undecodable');
    assert.ok((await b.pipeline.executeProposed(bytes)).ok, 'the untouched proposal still passes');
    // The view and block time are the proposal's own: the executed block's hash is the header's hash,
    // so a vote on that hash binds them.
    const otherView = tampered(bytes, (p) => (p.header.view = 7));
    const v = await b.pipeline.executeProposed(otherView);
    assert.ok(v.ok);
    assert.deepEqual(v.executed.hash, blockHash(proposalOf(otherView).header));
    assert.equal(v.executed.header.view, 7);
    assert.equal(b.pipeline.height(), 1, 'refusals commit nothing');
  });

  it("takes transactions within an authority's share of the block weight; refuses a proposal over it", async () => {
    // Two ShieldAssets weigh about 70,800 (docs/cost-model.md): one such transaction fits an authority's
    // share (100,000 by default), two do not. The weight is static: execution need not succeed.
    const shield = (n: number): Instruction => ({
      kind: 'ShieldAsset',
      amount: numeric('0.000001'),
      ownerHash: n.toString(16).padStart(64, '0'),
    });
    const heavy = [1, 2, 3].map((n) =>
      buildTx(admin, [shield(n), shield(n + 10)], {
        chainId: MEMORY_CHAIN_ID,
        creationTimeMs: a.clock.nowMs(),
        nonce: ++nonce,
      }),
    );
    for (const t of heavy) await submit(a, t);
    const taken = a.pipeline.takeTransactions(100);
    assert.deepEqual(
      taken.map((q) => q.hashHex),
      [toHex(transactionHash(heavy[0]!))],
      'the second would pass the share',
    );
    assert.equal(a.pipeline.queueDepth(), 2, 'the others wait, in order, for the next blocks');
    const executed = a.pipeline.execute(0, a.clock.nowMs(), taken);
    const bytes = encodeProposedBlock({ header: executed.header, transactions: executed.transactions });
    assert.ok((await b.pipeline.executeProposed(bytes)).ok);
    const over = tampered(bytes, (p) => {
      p.transactions = heavy.slice(0, 2);
      p.header.transactionCount = 2;
    });
    assert.equal(await refusal(b, over), 'proposal_weight_exceeded');
  });

  it("refuses a block time before its parent, another chain's, expired and committed transactions", async () => {
    await submit(a, tx(a.clock));
    const { bytes, executed } = propose(a);
    assert.equal(
      await refusal(
        b,
        tampered(bytes, (p) => (p.header.creationTimeMs = 1)),
      ),
      'proposal_time_regressed',
    );
    const foreign = buildTx(admin, [{ kind: 'Log', level: { kind: 'Info' }, message: 'x' }], {
      chainId: 'another-chain',
      creationTimeMs: a.clock.nowMs(),
    });
    const withForeign = tampered(bytes, (p) => {
      p.transactions = [foreign];
      p.header.transactionsRoot = merkleRoot([transactionHash(foreign)]);
    });
    assert.equal(await refusal(b, withForeign), 'proposal_foreign_transaction');
    const shortLived = buildTx(admin, [{ kind: 'Log', level: { kind: 'Info' }, message: 'ttl' }], {
      chainId: MEMORY_CHAIN_ID,
      creationTimeMs: a.clock.nowMs(),
      ttlMs: 1_000,
    });
    const expiredByBlockTime = tampered(bytes, (p) => {
      p.transactions = [shortLived];
      p.header.transactionsRoot = merkleRoot([transactionHash(shortLived)]);
      p.header.creationTimeMs = a.clock.nowMs() + 5_000;
    });
    assert.equal(await refusal(b, expiredByBlockTime), 'proposal_expired_transaction');
    // Commit block 2 on b; a later block that repeats its transaction is refused.
    const v = await b.pipeline.executeProposed(bytes);
    assert.ok(v.ok);
    await b.pipeline.commit(v.executed, certify(2, v.executed.hash));
    const again = encodeProposedBlock({
      header: { ...executed.header, height: 3, prevHash: v.executed.hash },
      transactions: executed.transactions,
    });
    assert.equal(await refusal(b, again), 'proposal_already_committed');
  });
});

describe('ConsensusHost: commit, sync, release', () => {
  let a: Peer;
  let b: Peer;
  beforeEach(async () => {
    [a, b] = [await peer(), await peer()];
  });

  it("commit purges another peer's block's transactions from our queue and announces them", async () => {
    const shared = [tx(a.clock, '1'), tx(a.clock, '2')];
    const ownOnly = tx(b.clock, 'b only');
    for (const t of shared) {
      await submit(a, t);
      await submit(b, t);
    }
    await submit(b, ownOnly);
    assert.equal(b.pipeline.queueDepth(), 3);
    const seen: EventEnvelope[] = [];
    b.pipeline.events.subscribe((e) => seen.push(e));
    const { bytes } = propose(a);
    const v = await b.pipeline.executeProposed(bytes);
    assert.ok(v.ok);
    await b.pipeline.commit(v.executed, certify(2, v.executed.hash));
    assert.equal(b.pipeline.queueDepth(), 1, "only b's own transaction is left");
    const left = b.pipeline.takeTransactions(10);
    assert.equal(left[0]?.hashHex, toHex(transactionHash(ownOnly)));
    for (const t of shared) {
      assert.equal((await b.pipeline.status(transactionHash(t)))?.status, 'Committed');
      const announced = seen.some(
        (e) =>
          e.event.kind === 'Transaction' &&
          e.event.status.kind === 'Committed' &&
          toHex(e.event.hash) === toHex(transactionHash(t)),
      );
      assert.ok(announced, 'announced Committed like our own');
    }
    // A resubmission is now a duplicate of a committed transaction.
    const r = await b.pipeline.submit(frameTx(shared[0]!));
    assert.equal(!r.ok && r.kind === 'duplicate' && r.code, 'already_committed');
  });

  it('a transaction we had taken and another block committed is not released back', async () => {
    const t = tx(a.clock);
    await submit(a, t);
    await submit(b, t);
    const taken = b.pipeline.takeTransactions(10);
    assert.equal(taken.length, 1);
    const { bytes } = propose(a);
    const v = await b.pipeline.executeProposed(bytes);
    assert.ok(v.ok);
    await b.pipeline.commit(v.executed, certify(2, v.executed.hash));
    b.pipeline.release(taken);
    assert.equal(b.pipeline.queueDepth(), 0);
  });

  it('release puts own taken transactions back at the front, once; expired ones are dropped', async () => {
    const [t1, t2, t3] = [tx(b.clock, '1'), tx(b.clock, '2'), tx(b.clock, '3')];
    await submit(b, t1);
    await submit(b, t2);
    const taken = b.pipeline.takeTransactions(10);
    await submit(b, t3);
    b.pipeline.release(taken);
    b.pipeline.release(taken);
    assert.equal(b.pipeline.queueDepth(), 3);
    const order = b.pipeline.takeTransactions(10).map((q) => q.hashHex);
    assert.deepEqual(
      order,
      [t1, t2, t3].map((t) => toHex(transactionHash(t))),
    );
    const again = b.pipeline.takeTransactions(10);
    assert.equal(again.length, 0);
    const expiring = tx(b.clock, 'soon');
    await submit(b, expiring);
    const gone = b.pipeline.takeTransactions(10);
    b.clock.advance(120_000);
    b.pipeline.release(gone);
    assert.equal(b.pipeline.queueDepth(), 0);
    assert.equal((await b.pipeline.status(transactionHash(expiring)))?.status, 'Expired');
  });

  it('appendSynced executes a committed block, checks it and commits it; blockBytes serves it', async () => {
    await submit(a, tx(a.clock));
    const { executed } = propose(a);
    await a.pipeline.commit(executed, certify(2, executed.hash));
    assert.equal(await a.pipeline.blockBytes(3), undefined);
    const bytes = await a.pipeline.blockBytes(2);
    assert.ok(bytes);
    const d = decode(BlockCodec, bytes, DEFAULT_DECODE_LIMITS);
    assert.ok(d.ok);
    const block: Block = d.value;

    const wrongRoot = { ...block.header, stateRoot: new Uint8Array(32).fill(9) };
    const forged: Block = {
      ...block,
      header: wrongRoot,
      certificate: certify(2, blockHash(wrongRoot)),
    };
    await assert.rejects(b.pipeline.appendSynced(forged), isHostError('sync_block_mismatch'));
    const otherCert: Block = { ...block, certificate: certify(2, new Uint8Array(32)) };
    await assert.rejects(b.pipeline.appendSynced(otherCert), isHostError('sync_certificate_mismatch'));
    await assert.rejects(
      b.pipeline.appendSynced({ ...block, header: { ...block.header, height: 5 } }),
      isHostError('sync_height'),
    );
    assert.equal(b.pipeline.height(), 1);

    await b.pipeline.appendSynced(block);
    assert.equal(b.pipeline.height(), 2);
    assert.deepEqual(b.pipeline.tipHash(), a.pipeline.tipHash());
    assert.deepEqual(b.pipeline.ledger.state.stateRoot(), a.pipeline.ledger.state.stateRoot());
    assert.deepEqual(await b.pipeline.blockBytes(2), bytes, 'the same bytes stored on both peers');
  });

  it('validatorSet comes from the injected function over the committed state', async () => {
    const v1 = b.pipeline.validatorSet();
    await submit(b, tx(b.clock));
    const { executed } = propose(b);
    await b.pipeline.commit(executed, certify(2, executed.hash));
    assert.match(v1, /^roster at version/);
    assert.notEqual(b.pipeline.validatorSet(), v1, 'recomputed from the new state');
  });
});

function isHostError(code: HostError['code']) {
  return (e: unknown) => e instanceof HostError && e.code === code;
}

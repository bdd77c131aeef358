// The pipeline's shortcuts on the commit path keep their contracts: the index keys and the involved
// accounts equal the general computations, admission finds the signed payload without a second
// decoding, concurrent admissions share verification batches and each gets its own answer, and the
// block log holds exactly the canonical encoding of each block built from the received bytes.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { run, startTestNode } from '../../test/helpers/node.js';
import { buildTx, frameTx, newAccount } from '../../test/helpers/tx.js';
import { encode, encodeFrame } from '../codec/frame.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { Reader } from '../codec/reader.js';
import { Writer } from '../codec/writer.js';
import { accountIdArb, MODEL_ARBITRARIES } from '../model/arbitraries.test.js';
import { BlockCodec } from '../model/block.js';
import type { Instruction } from '../model/instructions.js';
import { SCHEMA } from '../model/schema.js';
import {
  type SignedTransaction,
  SignedTransactionCodec,
  TransactionPayloadCodec,
} from '../model/transaction.js';
import { nodeFiles } from '../node/files.js';
import { BlockLog } from '../storage/block-log.js';
import { bytesEqual } from '../util/hex.js';
import { decodeSignedTransaction } from './admission.js';
import { involvedAccounts } from './involved.js';
import {
  decodeLocation,
  encodeLocation,
  txByAccountKey,
  txByAccountKeyAt,
  txByAccountPrefix,
} from './tx-index.js';

describe('commit path: index keys and involved accounts', () => {
  it('encodeLocation writes two canonical varints, as the codec writer would', () => {
    const heights = [0, 1, 127, 128, 16_383, 16_384, 2 ** 32 - 1, 2 ** 32, Number.MAX_SAFE_INTEGER];
    for (const height of heights) {
      for (const index of [0, 127, 128, 70_000]) {
        const w = new Writer(24);
        w.varuint(height);
        w.varuint(index);
        const bytes = encodeLocation({ height, index });
        assert.deepEqual(bytes, w.finish().slice());
        assert.deepEqual(decodeLocation(bytes), { height, index });
      }
    }
  });

  it('account keys: prefix, then height as u64 and index as u32, big-endian', () => {
    for (const height of [1, 255, 2 ** 32 + 5, Number.MAX_SAFE_INTEGER]) {
      const prefix = txByAccountPrefix('ed0120AB@w');
      const expected = new Uint8Array(prefix.length + 12);
      expected.set(prefix);
      const v = new DataView(expected.buffer);
      v.setBigUint64(prefix.length, BigInt(height), false);
      v.setUint32(prefix.length + 8, 0xfedcba98, false);
      const loc = { height, index: 0xfedcba98 };
      assert.deepEqual(txByAccountKeyAt(prefix, loc), expected);
      assert.deepEqual(txByAccountKey('ed0120AB@w', loc), expected);
    }
  });

  it('account prefixes: 0xFD, the UTF-8 id, 0x00, for ASCII and non-ASCII ids alike', () => {
    for (const id of ['ed0120AB@wonderland', 'ed0120AB@wünderland', 'ed0120AB@🌹', '']) {
      const utf8 = new TextEncoder().encode(id);
      assert.deepEqual(txByAccountPrefix(id), Uint8Array.from([0xfd, ...utf8, 0]));
    }
  });

  it('involvedAccounts: the authority and every party, once each, sorted', () => {
    const instructionArb = MODEL_ARBITRARIES.Instruction as fc.Arbitrary<Instruction>;
    const arb = fc.tuple(accountIdArb, fc.array(instructionArb, { maxLength: 12 }));
    fc.assert(
      fc.property(arb, ([authority, instructions]) => {
        const tx = { payload: { authority, instructions } } as unknown as SignedTransaction;
        const got = involvedAccounts(tx);
        assert.deepEqual(got, [...new Set(got)].sort());
        assert.ok(got.includes(authority));
        // Same set as the parties named (checked through a fresh transaction of the same parties twice).
        const doubled = { payload: { authority, instructions: [...instructions, ...instructions] } };
        assert.deepEqual(involvedAccounts(doubled as unknown as SignedTransaction), got);
      }),
      { numRuns: 200 },
    );
  });
});

describe('commit path: parties named by module instructions', () => {
  it('a module instruction names the parties its descriptor gives, a nested batch’s included', () => {
    const [alice, bob, multisig] = [1, 2, 3].map((n) => newAccount('w', n).id) as [string, string, string];
    const pay: Instruction = {
      kind: 'TransferAsset',
      source: `rose#w#${multisig}`,
      destination: bob,
      amount: { mantissa: 1n, scale: 0 },
    };
    const tx = (instructions: Instruction[]) =>
      ({ payload: { authority: alice, instructions } }) as unknown as SignedTransaction;
    const propose: Instruction = { kind: 'ProposeMultisig', multisig, instructions: [pay] };
    assert.deepEqual(involvedAccounts(tx([propose])), [alice, bob, multisig].sort());
    const approve: Instruction = { kind: 'ApproveMultisig', multisig, instructionsHash: '00'.repeat(32) };
    assert.deepEqual(involvedAccounts(tx([approve])), [alice, multisig].sort());
  });
});

describe('commit path: admission decoding', () => {
  it('finds the signed payload bytes whatever the signature length', () => {
    const alice = newAccount('wonderland', 3);
    const base = buildTx(alice, [{ kind: 'Log', level: { kind: 'Info' }, message: 'x'.repeat(150) }]);
    for (const length of [0, 1, 64, 96]) {
      const tx: SignedTransaction = { ...base, signature: new Uint8Array(length).fill(7) };
      const frame = encodeFrame(SCHEMA, SignedTransactionCodec, tx);
      const d = decodeSignedTransaction(frame, DEFAULT_DECODE_LIMITS);
      assert.ok(d.ok);
      if (!d.ok) continue;
      assert.deepEqual(d.payloadBytes, encode(TransactionPayloadCodec, tx.payload));
      assert.deepEqual(d.txBytes, encode(SignedTransactionCodec, tx));
      const r = new Reader(d.payloadBytes, DEFAULT_DECODE_LIMITS);
      TransactionPayloadCodec.decode(r);
      assert.equal(r.pos, d.payloadBytes.length);
    }
  });
});

describe('commit path: a node with a verification worker', () => {
  it('gathers concurrent signature checks into batches, answers each, and logs canonical blocks', async () => {
    const t = await startTestNode({ 'verify.threads': 1 });
    try {
      const domain = t.admin.id.slice(t.admin.id.indexOf('@') + 1);
      const senders = Array.from({ length: 8 }, (_, i) => newAccount(domain, 40 + i));
      const log: Instruction = { kind: 'Log', level: { kind: 'Info' }, message: 'hi' };
      // Admission refuses unknown authorities: register the senders first (block 2).
      await run(
        t,
        t.admin,
        senders.map((s) => ({ kind: 'RegisterAccount', id: s.id, metadata: new Map() })),
      );
      const frames = Array.from({ length: 120 }, (_, i) => {
        const tx = buildTx(senders[i % 8]!, [log], { chainId: t.chainId, nonce: i });
        if (i % 3 === 0) tx.signature[10]! ^= 0x10; // every third one is forged
        return frameTx(tx);
      });
      const before = t.node.verifyPool.stats().batchesSent;
      const results = await Promise.all(frames.map((f) => t.node.pipeline.submit(f)));
      const sent = t.node.verifyPool.stats().batchesSent - before;
      results.forEach((r, i) => {
        if (i % 3 === 0)
          assert.equal(!r.ok && r.kind === 'rejected' && r.rejection.code, 'signature_invalid');
        else
          assert.equal(
            r.ok,
            true,
            JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? `${v}` : v)),
          );
      });
      assert.ok(sent >= 1 && sent <= 4, `${sent} batches for 120 concurrent checks`);

      // Every admitted one is executed (after the registration).
      const counters = t.node.pipeline.counters;
      while (counters.txsApproved + counters.txsRejected < 81) await new Promise((r) => setTimeout(r, 10));
      const height = t.node.ledger.height();
      const decoded = [];
      for (let h = 1; h <= height; h++) decoded.push(await t.node.ledger.block(h));
      await t.node.stop();
      const { log: blocks } = await BlockLog.open(nodeFiles(t.dir).data, { fsync: false });
      try {
        for (let h = 1; h <= height; h++) {
          const rec = await blocks.read(h);
          const block = decoded[h - 1];
          assert.ok(rec !== undefined && block !== undefined);
          assert.ok(bytesEqual(rec.bytes, encode(BlockCodec, block)), `block ${h} is not canonical`);
        }
        assert.equal(
          decoded.slice(2).reduce((n, b) => n + b!.transactions.length, 0),
          80,
        );
      } finally {
        await blocks.close();
      }
    } finally {
      await t.cleanup();
    }
  });
});

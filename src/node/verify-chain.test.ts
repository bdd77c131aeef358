// verifyChain (`torana verify`): a chain built by a real node verifies with signatures checked on a pool
// of two workers ahead of re-execution (a bounded window of blocks), and a bad transaction signature, a
// bad certificate or a tampered block is reported at its height.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { registerAccounts, run, startTestNode, type TestNode } from '../../test/helpers/node.js';
import { newAccount } from '../../test/helpers/tx.js';
import { decode, encode } from '../codec/frame.js';
import { DEFAULT_DECODE_LIMITS } from '../codec/limits.js';
import { aggregateCertificate, voteMessage } from '../consensus/certificate.js';
import { type BlsKeyPair, blsBatchFastAggregateVerify } from '../crypto/bls.js';
import type { VerifyItem } from '../crypto/verify-batch.js';
import { VerifyPool } from '../crypto/verify-pool.js';
import { type Block, BlockCodec, blockHash } from '../model/block.js';
import { reject } from '../model/rejections.js';
import { payloadHash } from '../model/transaction.js';
import { BlockLog } from '../storage/block-log.js';
import { ChainVerificationError, type VerifyChainOptions, verifyChain } from './verify-chain.js';

const BLOCKS = 8;
const LIMITS = { ...DEFAULT_DECODE_LIMITS, bytesMax: 1 << 24 };

describe('verifyChain', () => {
  let t: TestNode;
  let pool: VerifyPool;
  let consensusKey: BlsKeyPair;
  const scratch: string[] = [];

  before(async () => {
    t = await startTestNode();
    // Blocks 2–6 by the admin, 7 registers a second account, 8 is signed by it: two signatories.
    for (let i = 0; i < BLOCKS - 3; i++)
      await run(t, t.admin, [{ kind: 'Log', level: { kind: 'Info' }, message: `block ${i}` }]);
    const other = newAccount(t.admin.id.slice(t.admin.id.lastIndexOf('@') + 1), 77);
    await registerAccounts(t, [other]);
    await run(t, other, [{ kind: 'Log', level: { kind: 'Info' }, message: 'block 8' }]);
    consensusKey = t.node.consensusKey;
    await t.node.stop();
    pool = new VerifyPool({ threads: 2 });
  });
  after(async () => {
    await pool.close();
    await rm(t.dir, { recursive: true, force: true });
    for (const d of scratch) await rm(d, { recursive: true, force: true });
  });

  const options = (dir: string, extra: Partial<VerifyChainOptions> = {}): VerifyChainOptions => ({
    dir,
    chainId: t.chainId,
    validatorSet: t.node.validatorSet,
    decodeLimits: LIMITS,
    verifySignatures: (items) => pool.verify(items),
    ...extra,
  });

  /** A copy of the node's block log with block `height` replaced by `change(block)`. */
  function tampered(height: number, change: (b: Block) => Block): Promise<string> {
    return tamperedMany(new Map([[height, change]]));
  }

  /** A copy of the node's block log with each block of `changes` replaced by its change. */
  async function tamperedMany(changes: Map<number, (b: Block) => Block>): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'torana-verify-'));
    scratch.push(dir);
    const { log: source } = await BlockLog.open(join(t.dir, 'data'), { fsync: false });
    const { log: copy } = await BlockLog.open(dir, { fsync: false });
    try {
      for await (const rec of source.iterate(1)) {
        const change = changes.get(rec.height);
        if (change === undefined) {
          await copy.append([rec]);
          continue;
        }
        const d = decode(BlockCodec, rec.bytes, LIMITS);
        assert.ok(d.ok);
        const block = change(d.value);
        await copy.append([{ ...rec, hash: blockHash(block.header), bytes: encode(BlockCodec, block) }]);
      }
    } finally {
      await source.close();
      await copy.close();
    }
    return dir;
  }

  it('verifies every block with signatures checked ahead of re-execution on two workers', async () => {
    const events: string[] = [];
    let inFlight = 0;
    let inFlightMax = 0;
    const report = await verifyChain(
      options(join(t.dir, 'data'), {
        lookaheadBlocksMax: 4,
        verifySignatures: async (items: VerifyItem[]) => {
          events.push('check');
          inFlightMax = Math.max(inFlightMax, ++inFlight);
          try {
            return await pool.verify(items);
          } finally {
            inFlight--;
          }
        },
        onProgress: (h) => events.push(`done ${h}`),
      }),
    );
    assert.equal(report.height, BLOCKS);
    assert.equal(report.transactions, BLOCKS);
    assert.equal(report.stateRoot.length, 64);
    // Blocks 2..5 are decoded and their signatures sent before block 1 is re-executed: the window of
    // four blocks (plus the one being judged) is full, and never larger.
    assert.deepEqual(events.slice(0, 6), ['check', 'check', 'check', 'check', 'check', 'done 1']);
    assert.ok(inFlightMax >= 2 && inFlightMax <= 5, `in flight at most ${inFlightMax}`);
    assert.ok(pool.stats().batchesSent >= 1);
  });

  it("checks each transaction against its own authority's key, across signatories", async () => {
    const keys: string[] = [];
    await verifyChain(
      options(join(t.dir, 'data'), {
        verifySignatures: (items) => {
          for (const i of items) keys.push(Buffer.from(i.publicKey).toString('hex'));
          return pool.verify(items);
        },
      }),
    );
    // Blocks 1–7 by the admin, block 8 by the second account: two keys, in that order.
    assert.equal(keys.length, BLOCKS);
    assert.equal(new Set(keys.slice(0, BLOCKS - 1)).size, 1);
    assert.notEqual(keys[BLOCKS - 1], keys[0]);
    // The second account's transaction signed by the admin's key is refused at its height.
    const dir = await tampered(BLOCKS, (b) => {
      const tx = b.transactions[0]!;
      const signature = t.admin.key.sign(payloadHash(tx.payload));
      return { ...b, transactions: [{ ...tx, signature }] };
    });
    await assert.rejects(verifyChain(options(dir)), (e: unknown) => {
      assert.ok(e instanceof ChainVerificationError);
      assert.equal(e.height, BLOCKS);
      assert.match(e.message, /transaction 0 has an invalid signature/);
      return true;
    });
  });

  it('keeps the window bounded by signatures as well as blocks', async () => {
    const events: string[] = [];
    await verifyChain(
      options(join(t.dir, 'data'), {
        lookaheadSignaturesMax: 1,
        verifySignatures: (items) => {
          events.push('check');
          return pool.verify(items);
        },
        onProgress: (h) => events.push(`done ${h}`),
      }),
    );
    // One transaction per block: a second block in the window exceeds one signature, so the oldest is
    // re-executed before a third is read.
    assert.deepEqual(events.slice(0, 4), ['check', 'check', 'done 1', 'check']);
  });

  it('rejects a transaction whose signature does not verify', async () => {
    const dir = await tampered(5, (b) => {
      const tx = b.transactions[0]!;
      const signature = Uint8Array.from(tx.signature, (x, i) => (i === 10 ? x ^ 1 : x));
      return { ...b, transactions: [{ ...tx, signature }] };
    });
    await assert.rejects(verifyChain(options(dir)), (e: unknown) => {
      assert.ok(e instanceof ChainVerificationError);
      assert.equal(e.height, 5);
      assert.match(e.message, /transaction 0 has an invalid signature/);
      return true;
    });
  });

  it('rejects a certificate whose signature does not verify', async () => {
    const dir = await tampered(3, (b) => {
      const other = encode(BlockCodec, b); // any bytes: a signature over another message
      const signature = consensusKey.sign(other);
      return { ...b, certificate: { ...b.certificate, signature } };
    });
    await assert.rejects(verifyChain(options(dir)), (e: unknown) => {
      assert.ok(e instanceof ChainVerificationError);
      assert.equal(e.height, 3);
      assert.match(e.message, /certificate invalid: bad_signature/);
      return true;
    });
  });

  /** The stored block at `height` of the node's chain. */
  async function storedBlock(height: number): Promise<Block> {
    const { log } = await BlockLog.open(join(t.dir, 'data'), { fsync: false });
    try {
      for await (const rec of log.iterate(height)) {
        const d = decode(BlockCodec, rec.bytes, LIMITS);
        assert.ok(d.ok);
        return d.value;
      }
      throw new Error(`no block ${height}`);
    } finally {
      await log.close();
    }
  }

  /** A certificate signature over another message. */
  const forged = (b: Block): Block => ({
    ...b,
    certificate: { ...b.certificate, signature: consensusKey.sign(encode(BlockCodec, b)) },
  });

  /** verifyChain with a window of 4 blocks ahead (so batches of blocks 1–5, then 6–8), counting batches. */
  async function verdict(dir: string, batches: number[] = []): Promise<ChainVerificationError | undefined> {
    try {
      await verifyChain(
        options(dir, {
          lookaheadBlocksMax: 4,
          verifyCertificateBatch: (checks) => {
            batches.push(checks.length);
            return blsBatchFastAggregateVerify(checks);
          },
        }),
      );
      return undefined;
    } catch (e) {
      assert.ok(e instanceof ChainVerificationError, String(e));
      return e;
    }
  }

  it('decides the certificates of a window with one batch check', async () => {
    const batches: number[] = [];
    assert.equal(await verdict(join(t.dir, 'data'), batches), undefined);
    // Block 1 is due once blocks 1–5 are read: their five certificates in one batch, then blocks 6–8.
    assert.deepEqual(batches, [5, 3]);
  });

  it('names the height of a bad certificate first, in the middle or last in a window, as one by one', async () => {
    for (const height of [1, 3, 5, 6, BLOCKS]) {
      const batches: number[] = [];
      const e = await verdict(await tampered(height, forged), batches);
      assert.equal(e?.height, height);
      assert.equal(e?.message, `block ${height}: certificate invalid: bad_signature`);
      // The batch that held it failed and the blocks before it were judged (re-executed) first.
      assert.deepEqual(batches, height <= 5 ? [5] : [5, 3]);
    }
    // Two bad certificates in one window: the lower height is named.
    const two = await tamperedMany(
      new Map([
        [5, forged],
        [3, forged],
      ]),
    );
    assert.equal((await verdict(two))?.height, 3);
  });

  it('judges an earlier block of the window before a later bad certificate', async () => {
    const dir = await tamperedMany(
      new Map<number, (b: Block) => Block>([
        [
          2,
          (b) => {
            const tx = b.transactions[0]!;
            const signature = Uint8Array.from(tx.signature, (x, i) => (i === 3 ? x ^ 1 : x));
            return { ...b, transactions: [{ ...tx, signature }] };
          },
        ],
        [4, forged],
      ]),
    );
    const e = await verdict(dir);
    assert.equal(e?.height, 2);
    assert.match(e?.message ?? '', /transaction 0 has an invalid signature/);
  });

  it('refuses a certificate signature valid for another block, and a whole certificate of another block', async () => {
    const fourth = (await storedBlock(4)).certificate;
    const signatureOnly = await tampered(3, (b) => ({
      ...b,
      certificate: { ...b.certificate, signature: fourth.signature },
    }));
    const e = await verdict(signatureOnly);
    assert.equal(e?.message, 'block 3: certificate invalid: bad_signature');
    const whole = await tampered(3, (b) => ({ ...b, certificate: fourth }));
    assert.equal((await verdict(whole))?.message, 'block 3: certificate is for another block');
  });

  it('names a bad certificate signature pending in the window before a later block that does not check', async () => {
    // Block 3's signature is forged (left to the window's batch); block 5 carries block 4's certificate,
    // refused when it is read, with blocks 1–4 still pending: their batch is settled first.
    const fourth = (await storedBlock(4)).certificate;
    const dir = await tamperedMany(
      new Map<number, (b: Block) => Block>([
        [3, forged],
        [5, (b) => ({ ...b, certificate: fourth })],
      ]),
    );
    const batches: number[] = [];
    const e = await verdict(dir, batches);
    assert.equal(e?.message, 'block 3: certificate invalid: bad_signature');
    assert.equal(e?.height, 3);
    // Block 5 never joined a batch: blocks 1–4 were judged as one.
    assert.deepEqual(batches, [4]);
  });

  it('refuses a wrong signer bitmap at its height, with valid certificates pending before it', async () => {
    const beyond = await tampered(4, (b) => ({
      ...b,
      certificate: { ...b.certificate, signers: Uint8Array.of(0b10) }, // a signer outside the roster of 1
    }));
    assert.equal((await verdict(beyond))?.message, 'block 4: certificate invalid: bad_bitmap');
    const none = await tampered(7, (b) => ({
      ...b,
      certificate: { ...b.certificate, signers: Uint8Array.of(0) },
    }));
    assert.equal((await verdict(none))?.message, 'block 7: certificate invalid: no_quorum');
    const wide = await tampered(2, (b) => ({
      ...b,
      certificate: { ...b.certificate, signers: Uint8Array.of(1, 0) },
    }));
    assert.equal((await verdict(wide))?.message, 'block 2: certificate invalid: bad_bitmap');
  });

  it('accepts a valid chain when the batch check fails, each certificate checked alone', async () => {
    let calls = 0;
    const report = await verifyChain(
      options(join(t.dir, 'data'), {
        lookaheadBlocksMax: 4,
        verifyCertificateBatch: () => {
          calls++;
          return false;
        },
      }),
    );
    assert.equal(report.height, BLOCKS);
    assert.equal(calls, 2);
  });

  it('rejects a block whose header re-execution does not reproduce, even with a valid certificate', async () => {
    const dir = await tampered(BLOCKS, (b) => {
      const header = { ...b.header, stateRoot: new Uint8Array(32).fill(7) };
      const subject = { ...b.certificate, blockHash: blockHash(header) };
      const vote = consensusKey.sign(voteMessage(t.chainId, subject));
      const certificate = aggregateCertificate(subject, [{ index: 0, signature: vote }], t.node.validatorSet);
      return { ...b, header, certificate };
    });
    await assert.rejects(verifyChain(options(dir)), (e: unknown) => {
      assert.ok(e instanceof ChainVerificationError);
      assert.equal(e.height, BLOCKS);
      assert.match(e.message, /re-execution gives block hash/);
      return true;
    });
  });

  it('rejects stored results that differ from an intact header at that height', async () => {
    const rejected = { kind: 'Rejected' as const, reason: reject('permission_denied') };
    const changed = await tampered(4, (b) => ({ ...b, results: [rejected] }));
    await assert.rejects(verifyChain(options(changed)), (e: unknown) => {
      assert.ok(e instanceof ChainVerificationError);
      assert.equal(e.height, 4);
      assert.match(e.message, /stored results differ from the header's results root/);
      return true;
    });
    const dropped = await tampered(6, (b) => ({ ...b, results: [] }));
    await assert.rejects(verifyChain(options(dropped)), (e: unknown) => {
      assert.ok(e instanceof ChainVerificationError);
      assert.equal(e.height, 6);
      assert.match(e.message, /0 results stored for 1 transactions/);
      return true;
    });
  });

  it('reports a failed signature check of a block ahead without an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    let calls = 0;
    try {
      const verifySignatures = async (items: VerifyItem[]) => {
        calls++;
        // Block 3's check fails at once while block 1, whose check is slow, is still being judged.
        if (calls === 3) throw new Error('verification worker died');
        if (calls === 1) await new Promise((r) => setTimeout(r, 100));
        return pool.verify(items);
      };
      await assert.rejects(
        verifyChain(options(join(t.dir, 'data'), { verifySignatures })),
        /verification worker died/,
      );
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

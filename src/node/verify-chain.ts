// Full re-verification of the chain from the block log alone (issue "Durable storage"): every block's
// hash, linkage, commit certificate and transaction signatures are checked, every block is re-executed
// from an empty state, and the result must reproduce each stored header exactly. The final state root is
// what a rebuild from blocks gives, to compare with the persisted state.

import type { DecodeLimits } from '../codec/limits.js';
import { isGenesisCertificate, verifyCertificate } from '../consensus/certificate.js';
import type { ValidatorSet } from '../consensus/validator-set.js';
import type { VerifyItem } from '../crypto/verify-batch.js';
import { type Block, blockHash } from '../model/block.js';
import { decodeBlockWithSpans, spanPayloadHash, spanTransactionHash } from '../model/block-spans.js';
import { parseAccountId } from '../model/ids.js';
import { parsePublicKey } from '../model/keys.js';
import { executeProposal } from '../pipeline/executed-block.js';
import { WorldState } from '../state/world-state.js';
import { BlockLog } from '../storage/block-log.js';
import { bytesEqual, toHex } from '../util/hex.js';

export interface VerifyChainOptions {
  dir: string;
  chainId: string;
  /** The genesis validator set (block 1, and every block of a single-peer node). */
  validatorSet: ValidatorSet;
  /**
   * A networked node's validator set of `height` from the state after `height - 1` (membership.ts);
   * when given, each certificate is checked against it, in order, instead of the genesis set.
   */
  validatorSetAt?: ((state: WorldState, height: number) => ValidatorSet) | undefined;
  decodeLimits: DecodeLimits;
  verifySignatures: (items: VerifyItem[]) => Promise<boolean[]>;
  onProgress?: ((height: number, of: number) => void) | undefined;
}

export interface VerifyChainReport {
  height: number;
  transactions: number;
  stateRoot: string;
  durationMs: number;
}

export class ChainVerificationError extends Error {
  override readonly name = 'ChainVerificationError';
  constructor(
    readonly height: number,
    message: string,
  ) {
    super(`block ${height}: ${message}`);
  }
}

interface Checked {
  height: number;
  recordHash: Uint8Array;
  block: Block;
  /** The transactions' hashes, taken over their bytes in the record. */
  hashes: Uint8Array[];
  /** Signature checks in flight on the verification workers. */
  signatures: Promise<boolean[]>;
}

/** Decodes a record and checks everything about it that needs no state; starts its signature checks. */
function checkRecord(
  rec: { height: number; hash: Uint8Array; bytes: Uint8Array },
  opts: VerifyChainOptions,
): Checked {
  const h = rec.height;
  const d = decodeBlockWithSpans(rec.bytes, {
    ...opts.decodeLimits,
    bytesMax: Number.MAX_SAFE_INTEGER,
    itemsMax: Number.MAX_SAFE_INTEGER,
  });
  if (!d.ok) throw new ChainVerificationError(h, `does not decode (${d.error.code})`);
  const { block, spans } = d.value;
  if (!bytesEqual(blockHash(block.header), rec.hash))
    throw new ChainVerificationError(h, 'header hash differs from the log record');
  if (block.certificate.height !== h || !bytesEqual(block.certificate.blockHash, rec.hash)) {
    throw new ChainVerificationError(h, 'certificate is for another block');
  }
  if (opts.validatorSetAt === undefined) checkCertificate(h, block, opts.validatorSet, opts);
  const items: VerifyItem[] = block.transactions.map((tx, i) => ({
    publicKey: parsePublicKey(parseAccountId(tx.payload.authority)!.signatory)!.bytes,
    message: spanPayloadHash(rec.bytes, spans[i]!),
    signature: tx.signature,
  }));
  return {
    height: h,
    recordHash: rec.hash,
    block,
    hashes: spans.map((s) => spanTransactionHash(rec.bytes, s)),
    signatures: opts.verifySignatures(items),
  };
}

function checkCertificate(h: number, block: Block, set: ValidatorSet, opts: VerifyChainOptions): void {
  // Block 1 of a multi-validator network carries the genesis certificate (no signers): it is checked by
  // re-executing the genesis transaction like every block, not by votes.
  const genesis = h === 1 && set.size > 1 && isGenesisCertificate(block.certificate, set);
  const problem = genesis ? undefined : verifyCertificate(opts.chainId, block.certificate, set);
  if (problem !== undefined) throw new ChainVerificationError(h, `certificate invalid: ${problem}`);
}

/** Waits for a block's signatures, re-executes it and checks it reproduces the stored header exactly. */
async function replayChecked(c: Checked, state: WorldState, opts: VerifyChainOptions): Promise<Uint8Array> {
  const chainId = opts.chainId;
  if (opts.validatorSetAt !== undefined) {
    const set = c.height === 1 ? opts.validatorSet : opts.validatorSetAt(state, c.height);
    checkCertificate(c.height, c.block, set, opts);
  }
  const bad = (await c.signatures).indexOf(false);
  if (bad >= 0) throw new ChainVerificationError(c.height, `transaction ${bad} has an invalid signature`);
  const { header, transactions } = c.block;
  const executed = executeProposal(state, chainId, {
    height: c.height,
    prevHash: header.prevHash,
    view: header.view,
    creationTimeMs: header.creationTimeMs,
    transactions,
    hashes: c.hashes,
    genesis: c.height === 1,
  });
  if (!bytesEqual(executed.hash, c.recordHash)) {
    throw new ChainVerificationError(
      c.height,
      `re-execution gives block hash ${toHex(executed.hash)} (state root ${toHex(executed.header.stateRoot)}, stored ${toHex(header.stateRoot)})`,
    );
  }
  executed.execution.commit();
  return executed.header.stateRoot;
}

export async function verifyChain(opts: VerifyChainOptions): Promise<VerifyChainReport> {
  const t0 = performance.now();
  const { log } = await BlockLog.open(opts.dir, { fsync: false });
  const state = WorldState.fromEntries([]);
  let transactions = 0;
  let stateRoot: Uint8Array = new Uint8Array(32);
  // One block ahead: the workers check block N+1's signatures while this thread re-executes block N.
  let pending: Checked | undefined;
  const finish = async (c: Checked) => {
    stateRoot = await replayChecked(c, state, opts);
    transactions += c.block.transactions.length;
    opts.onProgress?.(c.height, log.height);
  };
  try {
    for await (const rec of log.iterate(1)) {
      let next: Checked;
      try {
        next = checkRecord(rec, opts);
      } catch (e) {
        // Report the first bad block: the one still pending is older, so it is judged first.
        const older = pending;
        pending = undefined;
        if (older !== undefined) await finish(older);
        throw e;
      }
      const older = pending;
      pending = next;
      if (older !== undefined) await finish(older);
    }
    if (pending !== undefined) await finish(pending);
    return {
      height: log.height,
      transactions,
      stateRoot: toHex(stateRoot),
      durationMs: performance.now() - t0,
    };
  } finally {
    // A failure leaves the next block's checks in flight: settle them so nothing rejects unobserved.
    await pending?.signatures.catch(() => undefined);
    await log.close();
  }
}

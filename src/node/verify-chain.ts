// Full re-verification of the chain from the block log alone (issue "Durable storage"): every block's
// hash, linkage, commit certificate and transaction signatures are checked, every block is re-executed
// from an empty state, and the result must reproduce each stored header exactly. The final state root is
// what a rebuild from blocks gives, to compare with the persisted state.

import { decode } from '../codec/frame.js';
import type { DecodeLimits } from '../codec/limits.js';
import { verifyCertificate } from '../consensus/certificate.js';
import type { ValidatorSet } from '../consensus/validator-set.js';
import type { VerifyItem } from '../crypto/verify-batch.js';
import { BlockCodec, blockHash } from '../model/block.js';
import { parseAccountId } from '../model/ids.js';
import { parsePublicKey } from '../model/keys.js';
import { payloadHash, transactionHash } from '../model/transaction.js';
import { WorldState } from '../state/world-state.js';
import { BlockLog } from '../storage/block-log.js';
import { bytesEqual, toHex } from '../util/hex.js';
import { executeProposal } from '../pipeline/executed-block.js';

export interface VerifyChainOptions {
  dir: string;
  chainId: string;
  validatorSet: ValidatorSet;
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

export async function verifyChain(opts: VerifyChainOptions): Promise<VerifyChainReport> {
  const t0 = performance.now();
  const { log } = await BlockLog.open(opts.dir, { fsync: false });
  const state = WorldState.fromEntries([]);
  let transactions = 0;
  let stateRoot: Uint8Array = new Uint8Array(32);
  try {
    const top = log.height;
    for await (const rec of log.iterate(1)) {
      const h = rec.height;
      const d = decode(BlockCodec, rec.bytes, {
        ...opts.decodeLimits,
        bytesMax: Number.MAX_SAFE_INTEGER,
        itemsMax: Number.MAX_SAFE_INTEGER,
      });
      if (!d.ok) throw new ChainVerificationError(h, `does not decode (${d.error.code})`);
      const block = d.value;
      if (!bytesEqual(blockHash(block.header), rec.hash))
        throw new ChainVerificationError(h, 'header hash differs from the log record');
      if (block.certificate.height !== h || !bytesEqual(block.certificate.blockHash, rec.hash)) {
        throw new ChainVerificationError(h, 'certificate is for another block');
      }
      const problem = verifyCertificate(opts.chainId, block.certificate, opts.validatorSet);
      if (problem !== undefined) throw new ChainVerificationError(h, `certificate invalid: ${problem}`);
      const items: VerifyItem[] = block.transactions.map((tx) => ({
        publicKey: parsePublicKey(parseAccountId(tx.payload.authority)!.signatory)!.bytes,
        message: payloadHash(tx.payload),
        signature: tx.signature,
      }));
      const ok = await opts.verifySignatures(items);
      const bad = ok.indexOf(false);
      if (bad >= 0) throw new ChainVerificationError(h, `transaction ${bad} has an invalid signature`);
      const executed = executeProposal(state, opts.chainId, {
        height: h,
        prevHash: block.header.prevHash,
        view: block.header.view,
        creationTimeMs: block.header.creationTimeMs,
        transactions: block.transactions,
        hashes: block.transactions.map(transactionHash),
        genesis: h === 1,
      });
      if (!bytesEqual(executed.hash, rec.hash)) {
        throw new ChainVerificationError(
          h,
          `re-execution gives block hash ${toHex(executed.hash)} (state root ${toHex(executed.header.stateRoot)}, stored ${toHex(block.header.stateRoot)})`,
        );
      }
      executed.execution.commit();
      stateRoot = executed.header.stateRoot;
      transactions += block.transactions.length;
      opts.onProgress?.(h, top);
    }
    return {
      height: log.height,
      transactions,
      stateRoot: toHex(stateRoot),
      durationMs: performance.now() - t0,
    };
  } finally {
    await log.close();
  }
}

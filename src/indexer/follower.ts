// The indexer's verified view of the chain: each block is accepted only in height order, linked to the
// previous one, with a commit certificate that verifies against the validator set of its height (block
// 1: the genesis file's validators; later blocks: the membership of the state after the block before,
// consensus/membership.ts, as block sync and `torana verify` follow it), and re-executed from the state
// it follows to the very header the certificate signs. Re-execution is what gives the events and the
// balances the node never sends; it also proves the block's results.

import { isGenesisCertificate, verifyCertificate } from '../consensus/certificate.js';
import { validatorSetAt } from '../consensus/membership.js';
import type { ValidatorSet } from '../consensus/validator-set.js';
import { type Block, blockHash, merkleRoot, resultHashes } from '../model/block.js';
import { transactionHash } from '../model/transaction.js';
import { type ExecutedBlock, executeProposal } from '../pipeline/executed-block.js';
import { stateRootVersion } from '../state/merkle/hash.js';
import { WorldState } from '../state/world-state.js';
import { bytesEqual, toHex } from '../util/hex.js';
import { IndexerError } from './errors.js';

export interface FollowerOptions {
  chainId: string;
  /** The genesis file's validators: the trust anchor of block 1. */
  genesisSet: ValidatorSet;
  /** The genesis file's transaction hash: block 1 must carry exactly it. */
  genesisTransactionHash: Uint8Array;
  /** Where to start: a verified state after block `height` of hash `hash` (a checkpoint); block 1 otherwise. */
  start?: { state: WorldState; height: number; hash: Uint8Array };
}

/** A block that passed every check, executed; `commit()` moves the follower past it. */
export interface VerifiedBlock {
  block: Block;
  hash: Uint8Array;
  hashes: Uint8Array[];
  set: ValidatorSet;
  signers: number;
  executed: ExecutedBlock;
  /** The state before the block (read it before `commit`). */
  before: WorldState;
  commit(): void;
}

export class ChainFollower {
  readonly state: WorldState;
  private tipHeight: number;
  private tipHash: Uint8Array;

  constructor(private readonly opts: FollowerOptions) {
    this.state = opts.start?.state ?? WorldState.fromEntries([]);
    this.tipHeight = opts.start?.height ?? 0;
    this.tipHash = opts.start?.hash ?? new Uint8Array(32);
  }

  get height(): number {
    return this.tipHeight;
  }

  get hash(): Uint8Array {
    return this.tipHash;
  }

  /** The validator set that must sign block `height` (the next one). */
  setFor(height: number): ValidatorSet {
    return height === 1 ? this.opts.genesisSet : validatorSetAt(this.state, height);
  }

  /** Checks and executes the next block; throws IndexerError (nothing changed) when it fails. */
  verify(block: Block): VerifiedBlock {
    const h = this.tipHeight + 1;
    const { header, certificate: c, transactions, results } = block;
    const fail = (code: ConstructorParameters<typeof IndexerError>[0], why: string): never => {
      throw new IndexerError(code, `block ${h}: ${why}`, h);
    };
    if (header.height !== h) fail('index_block_out_of_order', `the source sent height ${header.height}`);
    if (!bytesEqual(header.prevHash, this.tipHash))
      fail('index_block_unlinked', `its previous hash is not the hash of block ${h - 1}`);
    const hash = blockHash(header);
    if (c.phase.kind !== 'Commit' || c.height !== h || !bytesEqual(c.blockHash, hash))
      fail('index_certificate_invalid', 'its certificate is for another block');
    const set = this.setFor(h);
    // A genesis registers its validators (node/genesis.ts), so a state naming none is not a chain's.
    if (set.size === 0) fail('index_certificate_invalid', 'the state before it names no validator set');
    const genesis = h === 1 && set.size > 1 && isGenesisCertificate(c, set);
    const problem = genesis ? undefined : verifyCertificate(this.opts.chainId, c, set);
    if (problem !== undefined)
      fail('index_certificate_invalid', `its certificate fails against the validator set: ${problem}`);
    const hashes = transactions.map((tx) => transactionHash(tx));
    if (!bytesEqual(merkleRoot(hashes), header.transactionsRoot))
      fail('index_block_mismatch', 'its transactions differ from the certified transactions root');
    if (
      results.length !== transactions.length ||
      !bytesEqual(merkleRoot(resultHashes(results)), header.resultsRoot)
    )
      fail('index_block_mismatch', 'its results differ from the certified results root');
    if (h === 1 && (hashes.length !== 1 || !bytesEqual(hashes[0]!, this.opts.genesisTransactionHash)))
      fail('index_block_mismatch', "block 1 does not carry the genesis file's transaction");
    const executed = executeProposal(this.state, this.opts.chainId, {
      height: h,
      prevHash: header.prevHash,
      view: header.view,
      creationTimeMs: header.creationTimeMs,
      transactions,
      hashes,
      genesis: h === 1,
      stateRootVersion: stateRootVersion(header.stateRoot),
    });
    if (!bytesEqual(executed.hash, hash))
      fail(
        'index_block_mismatch',
        `re-execution gives block hash ${toHex(executed.hash)}, the certificate signs ${toHex(hash)}`,
      );
    const signers = genesis ? 0 : c.signers.reduce((n, b) => n + popcount(b), 0);
    return {
      block,
      hash,
      hashes,
      set,
      signers,
      executed,
      before: this.state,
      commit: () => {
        executed.execution.commit();
        this.tipHeight = h;
        this.tipHash = hash;
      },
    };
  }
}

function popcount(b: number): number {
  let n = 0;
  for (let x = b; x !== 0; x &= x - 1) n++;
  return n;
}

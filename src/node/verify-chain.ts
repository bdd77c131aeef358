// Full re-verification of the chain from the block log alone (`torana verify`; docs/design/paths.md): every block's
// hash, linkage, stored results (against the header's results root), commit certificate and transaction
// signatures are checked, every block is re-executed from an empty state, and the result must reproduce
// each stored header exactly. The final state root is what a rebuild from blocks gives, to compare with
// the persisted state. A chain whose nodes imported a genesis state before block 1 starts from that state
// (`initialState`, the file imported again: genesis-import-state.ts) instead of an empty one.

import type { DecodeLimits } from '../codec/limits.js';
import {
  type CertificateProblem,
  certificateVote,
  isGenesisCertificate,
  verifyCertificate,
} from '../consensus/certificate.js';
import type { ValidatorSet } from '../consensus/validator-set.js';
import {
  type BlsAggregateCheck,
  blsBatchFastAggregateVerify,
  blsFastAggregateVerify,
} from '../crypto/bls.js';
import type { VerifyItem } from '../crypto/verify-batch.js';
import { type Block, blockHash, merkleRoot, resultHashes } from '../model/block.js';
import { decodeBlockWithSpans, spanPayloadHash, spanTransactionHash } from '../model/block-spans.js';
import { parseAccountId } from '../model/ids.js';
import { parsePublicKey } from '../model/keys.js';
import { executeProposal } from '../pipeline/executed-block.js';
import { stateRootVersion } from '../state/merkle/hash.js';
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
  /**
   * The state block 1 executes on: an imported genesis state (genesis-import-state.ts) for a chain whose
   * nodes imported one before their first start; an empty state when omitted.
   */
  initialState?: WorldState | undefined;
  /** Blocks whose signatures may be checked ahead of re-execution (VERIFY_LOOKAHEAD_BLOCKS_MAX). */
  lookaheadBlocksMax?: number | undefined;
  /** Signatures that may be in flight ahead of re-execution (VERIFY_LOOKAHEAD_SIGNATURES_MAX). */
  lookaheadSignaturesMax?: number | undefined;
  /**
   * Decides the certificates of the window at once (true: every one holds); `blsBatchFastAggregateVerify`
   * when omitted. When it answers false, each is checked alone, in height order, to name the first bad
   * one. Not used with `validatorSetAt` (each height's set is known only once the block before it ran).
   */
  verifyCertificateBatch?: ((checks: BlsAggregateCheck[]) => boolean) | undefined;
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
  /** The certificate's aggregate signature check, when it is left to a batch (CertificateBatch). */
  certificate: PendingCertificate | undefined;
}

/** A certificate whose every other check passed; its signature is decided with the window's batch. */
interface PendingCertificate {
  check: BlsAggregateCheck;
  /** True once its batch ran; then `problem` is undefined for a valid signature. */
  settled: boolean;
  problem: CertificateProblem | undefined;
}

/**
 * The certificates read ahead whose signatures are not decided yet, oldest first. They are settled all
 * together when the oldest block among them is due for re-execution: one randomized batch check for the
 * window (src/crypto/bls.ts), and only when that fails, one check per certificate in height order up to
 * the first bad one, so that the verdict names the same height and problem as checking each block alone.
 */
class CertificateBatch {
  #pending: PendingCertificate[] = [];

  constructor(private readonly verifyBatch: (checks: BlsAggregateCheck[]) => boolean) {}

  add(check: BlsAggregateCheck): PendingCertificate {
    const p: PendingCertificate = { check, settled: false, problem: undefined };
    this.#pending.push(p);
    return p;
  }

  settle(): void {
    const batch = this.#pending;
    this.#pending = [];
    if (this.verifyBatch(batch.map((p) => p.check))) {
      for (const p of batch) p.settled = true;
      return;
    }
    for (let i = 0; i < batch.length; i++) {
      const p = batch[i]!;
      const { message, publicKeys, signature } = p.check;
      p.settled = true;
      if (!blsFastAggregateVerify(message, publicKeys, signature)) {
        p.problem = 'bad_signature';
        // The blocks after it are never judged (verification stops at this height): keep them pending.
        this.#pending = batch.slice(i + 1);
        return;
      }
    }
  }
}

/** Signatory keys kept by authority text (`SignatoryKeys`); past this many the memo starts again. */
const SIGNATORY_KEYS_MAX = 65_536;

/**
 * The public key each transaction's signature is checked against, by its authority's text: a chain's
 * senders recur from block to block, and parsing the text again (account id, key text, hex) cost about as
 * much as hashing the transaction twice. Bounded; a pure function of the text, so memoizing it changes no
 * answer.
 */
class SignatoryKeys {
  readonly #keys = new Map<string, Uint8Array>();

  of(authority: string): Uint8Array {
    let key = this.#keys.get(authority);
    if (key === undefined) {
      key = parsePublicKey(parseAccountId(authority)!.signatory)!.bytes;
      if (this.#keys.size >= SIGNATORY_KEYS_MAX) this.#keys.clear();
      this.#keys.set(authority, key);
    }
    return key;
  }
}

/** Decodes a record and checks everything about it that needs no state; starts its signature checks. */
function checkRecord(
  rec: { height: number; hash: Uint8Array; bytes: Uint8Array },
  opts: VerifyChainOptions,
  certificates: CertificateBatch,
  signatories: SignatoryKeys,
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
  checkResults(h, block);
  const vote =
    opts.validatorSetAt === undefined ? certificateToCheck(h, block, opts.validatorSet, opts) : undefined;
  const certificate = vote === undefined ? undefined : certificates.add(vote);
  const items: VerifyItem[] = block.transactions.map((tx, i) => ({
    publicKey: signatories.of(tx.payload.authority),
    message: spanPayloadHash(rec.bytes, spans[i]!),
    signature: tx.signature,
  }));
  const signatures = opts.verifySignatures(items);
  // The window may hold this promise while older blocks are re-executed: a rejection (a worker died)
  // must not count as unhandled and end the process; awaiting it later still sees the rejection.
  void signatures.catch(() => {});
  return {
    height: h,
    recordHash: rec.hash,
    block,
    hashes: spans.map((s) => spanTransactionHash(rec.bytes, s)),
    signatures,
    certificate,
  };
}

/**
 * The stored results must be the ones the header commits to: the block hash covers the header only, so
 * re-execution (which reproduces the header) says nothing about the `results` list kept beside it.
 * The count is checked too, so a list of another length can never share the Merkle root.
 */
function checkResults(h: number, block: Block): void {
  const { header, results, transactions } = block;
  if (results.length !== transactions.length) {
    throw new ChainVerificationError(
      h,
      `${results.length} results stored for ${transactions.length} transactions`,
    );
  }
  if (!bytesEqual(merkleRoot(resultHashes(results)), header.resultsRoot))
    throw new ChainVerificationError(h, "stored results differ from the header's results root");
}

/** Block 1 of a multi-validator network carries the genesis certificate (no signers): it is checked by
 * re-executing the genesis transaction like every block, not by votes. */
function isGenesisBlock(h: number, block: Block, set: ValidatorSet): boolean {
  return h === 1 && set.size > 1 && isGenesisCertificate(block.certificate, set);
}

function checkCertificate(h: number, block: Block, set: ValidatorSet, opts: VerifyChainOptions): void {
  const problem = isGenesisBlock(h, block, set)
    ? undefined
    : verifyCertificate(opts.chainId, block.certificate, set);
  if (problem !== undefined) throw new ChainVerificationError(h, `certificate invalid: ${problem}`);
}

/**
 * Every check of the certificate but its aggregate signature, which is returned to be batched
 * (undefined for a genesis certificate, which has none); throws as `checkCertificate` for the others.
 */
function certificateToCheck(
  h: number,
  block: Block,
  set: ValidatorSet,
  opts: VerifyChainOptions,
): BlsAggregateCheck | undefined {
  if (isGenesisBlock(h, block, set)) return undefined;
  const vote = certificateVote(opts.chainId, block.certificate, set);
  if (typeof vote === 'string') throw new ChainVerificationError(h, `certificate invalid: ${vote}`);
  return { message: vote.message, publicKeys: vote.keys, signature: vote.signature };
}

/** Waits for a block's signatures, re-executes it and checks it reproduces the stored header exactly. */
async function replayChecked(
  c: Checked,
  state: WorldState,
  opts: VerifyChainOptions,
  certificates: CertificateBatch,
): Promise<Uint8Array> {
  const chainId = opts.chainId;
  if (c.certificate !== undefined) {
    if (!c.certificate.settled) certificates.settle();
    const problem = c.certificate.problem;
    if (problem !== undefined) throw new ChainVerificationError(c.height, `certificate invalid: ${problem}`);
  }
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
    // Blocks of an older chain name the multiset root (header version 1), later ones the state tree's.
    stateRootVersion: stateRootVersion(header.stateRoot),
  });
  if (!bytesEqual(executed.hash, c.recordHash)) {
    // Block 1 on the wrong starting state: say which one it ran on.
    const start =
      c.height !== 1
        ? ''
        : opts.initialState === undefined
          ? '; executed on an empty state: a chain whose nodes imported a genesis state verifies with --genesis-import <file>'
          : '; executed on the imported genesis state: the file is not the one this chain imported';
    throw new ChainVerificationError(
      c.height,
      `re-execution gives block hash ${toHex(executed.hash)} (state root ${toHex(executed.header.stateRoot)}, stored ${toHex(header.stateRoot)})${start}`,
    );
  }
  executed.execution.commit();
  return executed.header.stateRoot;
}

/**
 * How far verification runs ahead of re-execution: while this thread
 * re-executes block n, the workers check the signatures of blocks n+1 … n+k. Bounded in blocks and in
 * signatures so that memory stays bounded whatever the block sizes: at most this many decoded blocks
 * are held, and a window never holds more signatures than the second limit plus one block.
 */
export const VERIFY_LOOKAHEAD_BLOCKS_MAX = 32;
export const VERIFY_LOOKAHEAD_SIGNATURES_MAX = 8192;

/** Decoded blocks whose signatures are in flight, oldest first. */
class Window {
  readonly blocks: Checked[] = [];
  signatures = 0;

  constructor(
    private readonly blocksMax: number,
    private readonly signaturesMax: number,
  ) {}

  push(c: Checked): void {
    this.blocks.push(c);
    this.signatures += c.block.transactions.length;
  }

  /** True when the oldest block must be re-executed before another one is read. */
  full(): boolean {
    return (
      this.blocks.length > this.blocksMax || (this.blocks.length > 1 && this.signatures > this.signaturesMax)
    );
  }

  shift(): Checked | undefined {
    const c = this.blocks.shift();
    if (c !== undefined) this.signatures -= c.block.transactions.length;
    return c;
  }
}

export async function verifyChain(opts: VerifyChainOptions): Promise<VerifyChainReport> {
  const t0 = performance.now();
  const { log } = await BlockLog.open(opts.dir, { fsync: false });
  const state = opts.initialState ?? WorldState.fromEntries([]);
  let transactions = 0;
  let stateRoot: Uint8Array = new Uint8Array(32);
  const ahead = new Window(
    opts.lookaheadBlocksMax ?? VERIFY_LOOKAHEAD_BLOCKS_MAX,
    opts.lookaheadSignaturesMax ?? VERIFY_LOOKAHEAD_SIGNATURES_MAX,
  );
  const certificates = new CertificateBatch(opts.verifyCertificateBatch ?? blsBatchFastAggregateVerify);
  const signatories = new SignatoryKeys();
  /** Re-executes the oldest block of the window (its signatures checked by then). */
  const finishOldest = async () => {
    const c = ahead.shift()!;
    stateRoot = await replayChecked(c, state, opts, certificates);
    transactions += c.block.transactions.length;
    opts.onProgress?.(c.height, log.height);
  };
  try {
    for await (const rec of log.iterate(1)) {
      let next: Checked;
      try {
        next = checkRecord(rec, opts, certificates, signatories);
      } catch (e) {
        // Report the first bad block: the ones still in the window are older, so they are judged first.
        while (ahead.blocks.length > 0) await finishOldest();
        throw e;
      }
      ahead.push(next);
      while (ahead.full()) await finishOldest();
    }
    while (ahead.blocks.length > 0) await finishOldest();
    return {
      height: log.height,
      transactions,
      stateRoot: toHex(stateRoot),
      durationMs: performance.now() - t0,
    };
  } finally {
    // A failure leaves later blocks' checks in flight: settle them so nothing rejects unobserved.
    await Promise.all(ahead.blocks.map((c) => c.signatures.catch(() => undefined)));
    await log.close();
  }
}

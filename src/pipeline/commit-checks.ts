// Pre- and postconditions of committing a block, asserted at the point of action (always on). Each is
// O(1) or O(hash length): the state root compared is the one the execution already computed (cached),
// never a re-hash of the state. A failure is a bug upstream (the engine or the executor), thrown as an
// AssertionError before anything is written; the engines report it through `onFatal` and stop.

import type { CommitCertificate } from '../model/block.js';
import { assert } from '../util/assert.js';
import { bytesEqual, toHex } from '../util/hex.js';
import type { ExecutedBlock } from './executed-block.js';

const short = (h: Uint8Array) => toHex(h).slice(0, 16);

/** The chain's tip as the committer sees it: height and hash of the last durable block. */
export interface Tip {
  height: number;
  hash: Uint8Array;
}

/**
 * Before the block goes to the log: it is the next height, extends the tip, its execution's state root
 * (already computed) is the header's, and the certificate names this very block.
 */
export function assertCommitExtendsTip(
  tip: Tip,
  executed: ExecutedBlock,
  certificate: CommitCertificate,
): void {
  const { header } = executed;
  assert(
    header.height === tip.height + 1,
    `commit of height ${header.height} onto tip height ${tip.height} (must be tip + 1)`,
  );
  assert(
    bytesEqual(header.prevHash, tip.hash),
    `block ${header.height} has parent ${short(header.prevHash)}, the tip is ${short(tip.hash)}`,
  );
  // The root of the header's own version: the state tree's, or the multiset root of an old chain's block.
  const root = executed.execution.stateRootLike(header.stateRoot);
  assert(
    bytesEqual(root, header.stateRoot),
    `block ${header.height}: executed state root ${short(root)} differs from the header's ${short(header.stateRoot)}`,
  );
  assert(
    header.transactionCount === executed.transactions.length &&
      executed.results.length === executed.transactions.length &&
      executed.hashes.length === executed.transactions.length &&
      executed.hashHexes.length === executed.transactions.length &&
      executed.events.length === executed.transactions.length,
    `block ${header.height}: ${header.transactionCount} transactions in the header, ` +
      `${executed.transactions.length} executed, ${executed.results.length} results, ${executed.hashes.length} hashes, ` +
      `${executed.events.length} event lists`,
  );
  assert(
    certificate.height === header.height && bytesEqual(certificate.blockHash, executed.hash),
    `certificate for height ${certificate.height} block ${short(certificate.blockHash)} ` +
      `committed with block ${header.height} ${short(executed.hash)}`,
  );
}

/** After the commit: the tip advanced exactly to this block. */
export function assertTipIs(tip: Tip, executed: ExecutedBlock): void {
  assert(
    tip.height === executed.header.height && bytesEqual(tip.hash, executed.hash),
    `after committing block ${executed.header.height} ${short(executed.hash)} the tip is ` +
      `${tip.height} ${short(tip.hash)}`,
  );
}

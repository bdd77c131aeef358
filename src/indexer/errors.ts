// The indexer's stable error codes (docs/indexer.md "Errors"): each stops `torana index` with exit code 1
// and nothing written for the height it names.

export type IndexerErrorCode =
  /** The commit certificate is for another block or fails against the validator set of its height. */
  | 'index_certificate_invalid'
  /** The block's transactions, results or re-executed header differ from what its header commits to. */
  | 'index_block_mismatch'
  /** The source sent a block other than the next height. */
  | 'index_block_out_of_order'
  /** The block does not follow the previous block (another chain, or the database indexes another one). */
  | 'index_block_unlinked'
  /** The database indexes another chain than the genesis file's. */
  | 'index_chain_mismatch'
  /** The block source failed (connection refused or closed, undecodable message). */
  | 'index_source_failed'
  /** The genesis file cannot be read or is not a genesis. */
  | 'index_genesis_invalid'
  /** The stored state checkpoint does not decode or is not the state of the indexed block of its height. */
  | 'index_checkpoint_invalid';

export class IndexerError extends Error {
  override readonly name = 'IndexerError';
  constructor(
    readonly code: IndexerErrorCode,
    message: string,
    readonly height?: number,
  ) {
    super(message);
  }
}

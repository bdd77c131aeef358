// Answer types of the ledger-proofs routes (docs/ledger-proofs.md), defined once as codec types: the
// JSON answer, the codec answer and the JSON Schema of the OpenAPI document. Headers and certificates
// are the block codec's own types, so a client decodes them with the same definitions and hashes them.

import type { Infer } from '../codec/codec.js';
import { option, seq, struct } from '../codec/compound.js';
import { bool, bytes, jsonValue, string, varuint } from '../codec/primitives.js';
import { ValidatorCodec } from '../consensus/validator-set.js';
import { BlockHeaderCodec, CommitCertificateCodec, TransactionResultCodec } from '../model/block.js';
import { HashBytes } from '../model/keys.js';

/** Headers per answer of `GET /v1/ledger/headers` (`limit` default and cap). */
export const LEDGER_HEADERS_LIMIT_DEFAULT = 100;
export const LEDGER_HEADERS_LIMIT_MAX = 500;
/** Longest state key accepted by `?key=` (bytes; the longest id a table holds is well below it). */
export const STATE_KEY_BYTES_MAX = 1024;

export const LedgerCertifiedHeaderView = struct('LedgerCertifiedHeader', {
  height: varuint,
  /** The block hash: the hash of the header's encoding, what the certificate signs. */
  hash: HashBytes,
  header: BlockHeaderCodec,
  certificate: CommitCertificateCodec,
  /**
   * The roster of the validator set that certifies this block (its hash is the certificate's
   * `validator_set_hash`): on the first item and wherever it differs from the previous item's.
   */
  validators: option(seq(ValidatorCodec, 1024)),
});
export type LedgerCertifiedHeader = Infer<typeof LedgerCertifiedHeaderView>;

export const LedgerHeadersView = struct('LedgerHeaders', {
  chainId: string(256),
  /** The newest committed height. */
  tip: varuint,
  items: seq(LedgerCertifiedHeaderView),
});
export type LedgerHeaders = Infer<typeof LedgerHeadersView>;

export const LedgerStateProofView = struct('LedgerStateProof', {
  height: varuint,
  blockHash: HashBytes,
  /** The header's state root (version 2) the proof verifies against. */
  stateRoot: HashBytes,
  key: bytes(STATE_KEY_BYTES_MAX),
  /** The table the key belongs to, when the node knows it. */
  table: option(string(64)),
  id: option(string(STATE_KEY_BYTES_MAX)),
  /** Whether the key holds a value at `height` (false: the proof shows its absence). */
  present: bool,
  /** The value bytes (the table codec's encoding) when present. */
  value: option(bytes()),
  /** The value decoded with its table's codec, as JSON. */
  decoded: option(jsonValue(1024 * 1024)),
  /** The state tree proof (docs/design/state.md §Proofs binary form). */
  proof: bytes(),
});
export type LedgerStateProof = Infer<typeof LedgerStateProofView>;

/** Keys per `POST /v1/proofs/query`. */
export const PROOF_QUERY_KEYS_MAX = 256;

export const ProofBatchItemView = struct('ProofBatchItem', {
  key: bytes(STATE_KEY_BYTES_MAX),
  table: option(string(64)),
  id: option(string(STATE_KEY_BYTES_MAX)),
  present: bool,
  value: option(bytes()),
  decoded: option(jsonValue(1024 * 1024)),
  proof: bytes(),
});
export type ProofBatchItem = Infer<typeof ProofBatchItemView>;

export const ProofBatchView = struct('ProofBatch', {
  height: varuint,
  blockHash: HashBytes,
  /** The header's state root every item's proof verifies against. */
  stateRoot: HashBytes,
  /** One item per key asked for, in the order asked. */
  items: seq(ProofBatchItemView, PROOF_QUERY_KEYS_MAX),
});
export type ProofBatch = Infer<typeof ProofBatchView>;

export const ProofPinView = struct('ProofPin', {
  height: varuint,
  /** Every value of that height is kept (pinned when it was the newest state or before it was reached). */
  complete: bool,
});

export const ProofRetentionView = struct('ProofRetention', {
  /** The newest height with a state tree (the committed state). */
  newestHeight: varuint,
  /** The oldest height of the rolling window (pinned heights may be older). */
  oldestHeight: varuint,
  /** `storage.state_tree_versions_kept`. */
  versionsKept: varuint,
  /** The first height the block log holds: a node restored from a snapshot has no blocks below it. */
  blockLogBase: varuint,
  /** `storage.state_proof_pins_max`. */
  pinsMax: varuint,
  pins: seq(ProofPinView, 1024),
  /** Old values are kept for the pins (true while any pin is set). */
  oldValuesKept: bool,
});
export type ProofRetention = Infer<typeof ProofRetentionView>;

export const ProofPinChangeView = struct('ProofPinChange', {
  height: varuint,
  pinned: bool,
  complete: option(bool),
});

export const LedgerEntryProofView = struct('LedgerEntryProof', {
  height: varuint,
  blockHash: HashBytes,
  /** The transaction's hash (the entry) and its position in the block. */
  entryHash: HashBytes,
  index: varuint,
  transactionCount: varuint,
  transactionsRoot: HashBytes,
  /** Audit path of the entry hash in `transactions_root`, leaf side first. */
  transactionsPath: seq(HashBytes),
  result: TransactionResultCodec,
  /** The result's encoding: its hash is the leaf of `results_root`. */
  resultBytes: bytes(),
  resultsRoot: HashBytes,
  resultsPath: seq(HashBytes),
});
export type LedgerEntryProof = Infer<typeof LedgerEntryProofView>;

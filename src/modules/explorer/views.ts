// Answer types of the explorer routes: lists are
// `{pagination: {page, per_page, total_pages, total_items}, items}`; details are flat summaries of blocks
// and committed transactions with hashes as hex. Where the reference's field names differ, ours are kept
// and the mapping is in docs/explorer.md ("Shapes").

import type { AnyCodec, Codec, Infer } from '../../codec/codec.js';
import { option, seq, struct } from '../../codec/compound.js';
import { bytes, string, u8, u32, varuint } from '../../codec/primitives.js';
import { CertificatePhaseCodec, TransactionResultCodec } from '../../model/block.js';
import { MintableCodec } from '../../model/entities.js';
import { AccountId, AssetDefinitionId, DomainId } from '../../model/ids.js';
import { InstructionCodec } from '../../model/instructions.js';
import { Hash, SignatureBytes } from '../../model/keys.js';
import { MetadataCodec } from '../../model/metadata.js';
import { Name } from '../../model/names.js';
import { NumericCodec } from '../../model/numeric.js';
import { RejectionCodec } from '../../model/rejections.js';

export const ExplorerPaginationView = struct('ExplorerPagination', {
  page: varuint,
  perPage: varuint,
  totalPages: varuint,
  totalItems: varuint,
});
export type ExplorerPagination = Infer<typeof ExplorerPaginationView>;

export function explorerListView<T>(name: string, item: Codec<T>) {
  return struct(name, { pagination: ExplorerPaginationView, items: seq(item) });
}

export const ExplorerBlockView = struct('ExplorerBlock', {
  height: varuint,
  hash: Hash,
  prevHash: Hash,
  creationTimeMs: varuint,
  view: varuint,
  transactionCount: varuint,
  rejectedCount: varuint,
});
export type ExplorerBlock = Infer<typeof ExplorerBlockView>;

export const ExplorerTransactionView = struct('ExplorerTransaction', {
  hash: Hash,
  blockHeight: varuint,
  index: varuint,
  authority: AccountId,
  creationTimeMs: varuint,
  instructionCount: varuint,
  result: TransactionResultCodec,
  /** `Committed` or `Rejected` (the kind of `result`, as the reference's `status`). */
  status: string(16),
  /** What the transaction executes: always `Instructions` (no contract VM). */
  executable: string(16),
});
export type ExplorerTransaction = Infer<typeof ExplorerTransactionView>;

export const ExplorerCertificateView = struct('ExplorerCertificate', {
  phase: CertificatePhaseCodec,
  height: varuint,
  view: varuint,
  epoch: varuint,
  blockHash: Hash,
  validatorSetHash: Hash,
  /** Validators whose bit is set in `signers` (bitmap over the sorted roster). */
  signerCount: varuint,
  signers: bytes(1024),
});

export const ExplorerBlockDetailView = struct('ExplorerBlockDetail', {
  height: varuint,
  hash: Hash,
  prevHash: Hash,
  transactionsRoot: Hash,
  resultsRoot: Hash,
  stateRoot: Hash,
  creationTimeMs: varuint,
  view: varuint,
  transactionCount: varuint,
  rejectedCount: varuint,
  transactions: seq(ExplorerTransactionView),
  certificate: ExplorerCertificateView,
});
export type ExplorerBlockDetail = Infer<typeof ExplorerBlockDetailView>;

export const ExplorerTransactionDetailView = struct('ExplorerTransactionDetail', {
  hash: Hash,
  blockHeight: varuint,
  blockHash: Hash,
  index: varuint,
  authority: AccountId,
  creationTimeMs: varuint,
  ttlMs: option(varuint),
  nonce: option(u32),
  metadata: MetadataCodec,
  instructions: seq(InstructionCodec),
  signature: SignatureBytes,
  result: TransactionResultCodec,
  status: string(16),
  executable: string(16),
  /** Present when rejected: the rejection as codec bytes (hex), as JSON, and its message. */
  rejectionReason: option(
    struct('ExplorerRejectionReason', { encoded: string(4096), json: RejectionCodec, message: string(1024) }),
  ),
});
export type ExplorerTransactionDetail = Infer<typeof ExplorerTransactionDetailView>;

export const ExplorerAccountView = struct('ExplorerAccount', {
  id: AccountId,
  domain: DomainId,
  assetCount: varuint,
  roleCount: varuint,
  metadata: MetadataCodec,
  /** Domains, balances (same as asset_count) and NFTs this account owns. */
  ownedDomains: varuint,
  ownedAssets: varuint,
  ownedNfts: varuint,
});
export type ExplorerAccount = Infer<typeof ExplorerAccountView>;

export const ExplorerDomainView = struct('ExplorerDomain', {
  id: DomainId,
  ownedBy: AccountId,
  accountCount: varuint,
  assetDefinitionCount: varuint,
  nftCount: varuint,
  metadata: MetadataCodec,
});
export type ExplorerDomain = Infer<typeof ExplorerDomainView>;

/** The fields of an asset definition row; the detail adds its metadata after them. */
const assetDefinitionFields = {
  id: AssetDefinitionId,
  name: Name,
  domain: DomainId,
  totalQuantity: NumericCodec,
  scale: u8,
  mintable: MintableCodec,
  ownedBy: AccountId,
  holderCount: varuint,
};

export const ExplorerAssetDefinitionView = struct('ExplorerAssetDefinition', assetDefinitionFields);
export type ExplorerAssetDefinition = Infer<typeof ExplorerAssetDefinitionView>;

export const ExplorerAssetDefinitionDetailView = struct('ExplorerAssetDefinitionDetail', {
  ...assetDefinitionFields,
  metadata: MetadataCodec,
});
export type ExplorerAssetDefinitionDetail = Infer<typeof ExplorerAssetDefinitionDetailView>;

export const ExplorerBlockListView = explorerListView('ExplorerBlockList', ExplorerBlockView);
export const ExplorerTransactionListView = explorerListView(
  'ExplorerTransactionList',
  ExplorerTransactionView,
);
export const ExplorerAccountListView = explorerListView('ExplorerAccountList', ExplorerAccountView);
export const ExplorerDomainListView = explorerListView('ExplorerDomainList', ExplorerDomainView);
export const ExplorerAssetDefinitionListView = explorerListView(
  'ExplorerAssetDefinitionList',
  ExplorerAssetDefinitionView,
);

export const EXPLORER_VIEWS: readonly AnyCodec[] = [
  ExplorerBlockListView,
  ExplorerBlockDetailView,
  ExplorerTransactionListView,
  ExplorerTransactionDetailView,
  ExplorerAccountListView,
  ExplorerDomainListView,
  ExplorerAssetDefinitionListView,
  ExplorerAssetDefinitionDetailView,
];

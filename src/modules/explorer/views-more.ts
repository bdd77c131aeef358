// Answer types of the explorer routes added for the complete family: instructions,
// balances and NFTs, the latest-N lists, the account QR code, health, metrics, and the asset-definition
// snapshot and econometrics. Ratios are integers in parts per million (`*_ppm`): no floating point in
// answers (never floating point for amounts; shares of amounts follow).

import type { Infer } from '../../codec/codec.js';
import { seq, struct } from '../../codec/compound.js';
import { string, varuint } from '../../codec/primitives.js';
import { AccountId, AssetDefinitionId, AssetId, DomainId, NftId } from '../../model/ids.js';
import { InstructionCodec } from '../../model/instructions.js';
import { Hash } from '../../model/keys.js';
import { MetadataCodec } from '../../model/metadata.js';
import { NumericCodec } from '../../model/numeric.js';
import { ExplorerTransactionView, explorerListView } from './views.js';

/** Hex of the codec bytes of one instruction: a transaction body is at most 64 KiB by default. */
const HEX_CHARS_MAX = 2 * 1024 * 1024;

export const ExplorerInstructionView = struct('ExplorerInstruction', {
  authority: AccountId,
  creationTimeMs: varuint,
  kind: string(64),
  /** The instruction as native codec bytes (hex) and as JSON. */
  box: struct('ExplorerInstructionBox', { encoded: string(HEX_CHARS_MAX), json: InstructionCodec }),
  transactionHash: Hash,
  transactionStatus: string(16),
  blockHeight: varuint,
  transactionIndex: varuint,
  index: varuint,
});
export type ExplorerInstruction = Infer<typeof ExplorerInstructionView>;
export const ExplorerInstructionListView = explorerListView(
  'ExplorerInstructionList',
  ExplorerInstructionView,
);

/** The latest-N views: unpaged, newest first. */
export const ExplorerLatestTransactionsView = struct('ExplorerLatestTransactions', {
  items: seq(ExplorerTransactionView),
});
export const ExplorerLatestInstructionsView = struct('ExplorerLatestInstructions', {
  items: seq(ExplorerInstructionView),
});

export const ExplorerAssetView = struct('ExplorerAsset', {
  id: AssetId,
  accountId: AccountId,
  definitionId: AssetDefinitionId,
  /** Decimal string. */
  quantity: NumericCodec,
});
export type ExplorerAsset = Infer<typeof ExplorerAssetView>;
export const ExplorerAssetListView = explorerListView('ExplorerAssetList', ExplorerAssetView);

export const ExplorerNftView = struct('ExplorerNft', {
  id: NftId,
  domain: DomainId,
  ownedBy: AccountId,
  content: MetadataCodec,
});
export type ExplorerNft = Infer<typeof ExplorerNftView>;
export const ExplorerNftListView = explorerListView('ExplorerNftList', ExplorerNftView);

export const ExplorerQrView = struct('ExplorerQr', {
  /** An SVG document (viewBox in modules, quiet zone of 2 modules included). */
  svg: string(HEX_CHARS_MAX),
  /** The text the code encodes: the account id in its canonical form. */
  literal: string(1024),
  /** QR version (1..40: the symbol is 17 + 4 × version modules wide). */
  qrVersion: varuint,
  /** `low`, `medium`, `quartile` or `high`. */
  errorCorrection: string(16),
});
export type ExplorerQr = Infer<typeof ExplorerQrView>;

export const ExplorerHealthView = struct('ExplorerHealth', {
  height: varuint,
  /** Hash of the tip block (64 zeros before genesis). */
  blockHash: Hash,
  /** Creation time of the tip block (ms since the epoch; 0 before genesis). */
  creationTimeMs: varuint,
});
export type ExplorerHealth = Infer<typeof ExplorerHealthView>;

export const ExplorerMetricsView = struct('ExplorerMetrics', {
  height: varuint,
  /** Peers this node is configured with or has seen, itself included. */
  peers: varuint,
  domains: varuint,
  accounts: varuint,
  /** Committed and rejected transactions in blocks 1..totals_height. */
  transactionsAccepted: varuint,
  transactionsRejected: varuint,
  totalsHeight: varuint,
  /** Mean gap between the creation times of the newest blocks (0 with fewer than two blocks). */
  blockTimeMsAvg: varuint,
  /** Mean time from a block's creation to this node applying it, over blocks applied since start. */
  commitTimeMsAvg: varuint,
});
export type ExplorerMetrics = Infer<typeof ExplorerMetricsView>;

const Holder = struct('ExplorerHolder', { accountId: AccountId, quantity: NumericCodec, sharePpm: varuint });
const LorenzPoint = struct('ExplorerLorenzPoint', { holdersPpm: varuint, quantityPpm: varuint });

export const ExplorerSnapshotView = struct('ExplorerSnapshot', {
  definitionId: AssetDefinitionId,
  height: varuint,
  holders: varuint,
  totalQuantity: NumericCodec,
  /** Gini coefficient of the balances (0 = equal, 1,000,000 = one holder has everything). */
  giniPpm: varuint,
  /** Cumulative share of the quantity held by the poorest share of holders, from (0, 0) to (1e6, 1e6). */
  lorenz: seq(LorenzPoint),
  /** Largest holders first (ties by account id). */
  topHolders: seq(Holder),
});
export type ExplorerSnapshot = Infer<typeof ExplorerSnapshotView>;

const Bucket = struct('ExplorerEconometricsBucket', {
  fromHeight: varuint,
  toHeight: varuint,
  minted: NumericCodec,
  burned: NumericCodec,
  transferVolume: NumericCodec,
  transfers: varuint,
});

export const ExplorerEconometricsView = struct('ExplorerEconometrics', {
  definitionId: AssetDefinitionId,
  fromHeight: varuint,
  toHeight: varuint,
  /** Committed transactions only; rejected ones changed nothing. */
  minted: NumericCodec,
  burned: NumericCodec,
  transferVolume: NumericCodec,
  mints: varuint,
  burns: varuint,
  transfers: varuint,
  /** Supply now (total_quantity of the definition). */
  supply: NumericCodec,
  /** transfer_volume / supply, in parts per million (0 when the supply is 0). */
  velocityPpm: varuint,
  buckets: seq(Bucket),
});
export type ExplorerEconometrics = Infer<typeof ExplorerEconometricsView>;

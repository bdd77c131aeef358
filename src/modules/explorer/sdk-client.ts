// Typed readers of the explorer routes (docs/explorer.md), decoded with the node's own view codecs
// (views*.ts) so the SDK and the node cannot drift, and the explorer's SSE streams
// (sdk-stream.ts). Reached as `client.explorer` (sdk.ts installs it).

import type { Codec } from '../../codec/codec.js';
import { ToranaTransportError } from '../../sdk/errors.js';
import type { Http } from '../../sdk/http.js';
import { type ExplorerStreamItem, type ExplorerStreamOptions, explorerStream } from './sdk-stream.js';
import {
  ExplorerAccountListView,
  ExplorerAccountView,
  ExplorerAssetDefinitionDetailView,
  ExplorerAssetDefinitionListView,
  ExplorerBlockDetailView,
  ExplorerBlockListView,
  ExplorerDomainListView,
  ExplorerDomainView,
  ExplorerTransactionDetailView,
  ExplorerTransactionListView,
} from './views.js';
import {
  ExplorerAssetListView,
  ExplorerAssetView,
  ExplorerEconometricsView,
  ExplorerHealthView,
  ExplorerInstructionListView,
  ExplorerInstructionView,
  ExplorerLatestInstructionsView,
  ExplorerLatestTransactionsView,
  ExplorerMetricsView,
  ExplorerNftListView,
  ExplorerNftView,
  ExplorerQrView,
  ExplorerSnapshotView,
} from './views-more.js';

export interface ExplorerPageOptions {
  page?: number;
  perPage?: number;
}

export interface TransactionFilterOptions {
  authority?: string;
  block?: number;
  /** `Committed` or `Rejected` (any case). */
  status?: string;
  /** An asset id, or an asset definition id (any of its balances). */
  assetId?: string;
}

export interface InstructionFilterOptions extends TransactionFilterOptions {
  account?: string;
  transactionHash?: string;
  /** `Committed` or `Rejected` (any case). */
  transactionStatus?: string;
  kind?: string;
}

export interface AssetFilterOptions {
  ownedBy?: string;
  definition?: string;
  assetId?: string;
}

type Query = Record<string, string | number | undefined>;

const page = (o: ExplorerPageOptions): Query => ({ page: o.page, per_page: o.perPage });
const txQuery = (o: TransactionFilterOptions): Query => ({
  authority: o.authority,
  block: o.block,
  status: o.status,
  asset_id: o.assetId,
});
const insQuery = (o: InstructionFilterOptions): Query => ({
  ...txQuery(o),
  status: undefined,
  account: o.account,
  transaction_hash: o.transactionHash,
  transaction_status: o.transactionStatus,
  kind: o.kind,
});
const id = encodeURIComponent;

export class ExplorerClient {
  constructor(private readonly http: Http) {}

  private async view<T>(codec: Codec<T>, path: string, query: Query = {}): Promise<T> {
    const json = await this.http.json({ method: 'GET', path: `/v1/explorer${path}`, query });
    try {
      return codec.fromJson(json, '');
    } catch (e) {
      throw new ToranaTransportError(
        `${path}: the answer does not match its schema (${(e as Error).message})`,
      );
    }
  }

  blocks = (o: ExplorerPageOptions = {}) => this.view(ExplorerBlockListView, '/blocks', page(o));
  /** One block by height or by hash. */
  block = (heightOrHash: number | string) => this.view(ExplorerBlockDetailView, `/blocks/${heightOrHash}`);
  transactions = (o: ExplorerPageOptions & TransactionFilterOptions = {}) =>
    this.view(ExplorerTransactionListView, '/transactions', { ...page(o), ...txQuery(o) });
  latestTransactions = (limit?: number) =>
    this.view(ExplorerLatestTransactionsView, '/transactions/latest', { limit });
  transaction = (hash: string) => this.view(ExplorerTransactionDetailView, `/transactions/${hash}`);
  instructions = (o: ExplorerPageOptions & InstructionFilterOptions = {}) =>
    this.view(ExplorerInstructionListView, '/instructions', { ...page(o), ...insQuery(o) });
  latestInstructions = (limit?: number) =>
    this.view(ExplorerLatestInstructionsView, '/instructions/latest', { limit });
  instruction = (hash: string, index: number) =>
    this.view(ExplorerInstructionView, `/instructions/${hash}/${index}`);
  accounts = (o: ExplorerPageOptions = {}) => this.view(ExplorerAccountListView, '/accounts', page(o));
  account = (accountId: string) => this.view(ExplorerAccountView, `/accounts/${id(accountId)}`);
  accountQr = (accountId: string) => this.view(ExplorerQrView, `/accounts/${id(accountId)}/qr`);
  domains = (o: ExplorerPageOptions = {}) => this.view(ExplorerDomainListView, '/domains', page(o));
  domain = (domainId: string) => this.view(ExplorerDomainView, `/domains/${id(domainId)}`);
  assetDefinitions = (o: ExplorerPageOptions = {}) =>
    this.view(ExplorerAssetDefinitionListView, '/asset-definitions', page(o));
  assetDefinition = (definitionId: string) =>
    this.view(ExplorerAssetDefinitionDetailView, `/asset-definitions/${id(definitionId)}`);
  snapshot = (definitionId: string) =>
    this.view(ExplorerSnapshotView, `/asset-definitions/${id(definitionId)}/snapshot`);
  econometrics = (
    definitionId: string,
    w: { fromHeight?: number; toHeight?: number; buckets?: number } = {},
  ) =>
    this.view(ExplorerEconometricsView, `/asset-definitions/${id(definitionId)}/econometrics`, {
      from_height: w.fromHeight,
      to_height: w.toHeight,
      buckets: w.buckets,
    });
  assets = (o: ExplorerPageOptions & AssetFilterOptions = {}) =>
    this.view(ExplorerAssetListView, '/assets', {
      ...page(o),
      owned_by: o.ownedBy,
      definition: o.definition,
      asset_id: o.assetId,
    });
  asset = (assetId: string) => this.view(ExplorerAssetView, `/assets/${id(assetId)}`);
  nfts = (o: ExplorerPageOptions = {}) => this.view(ExplorerNftListView, '/nfts', page(o));
  nft = (nftId: string) => this.view(ExplorerNftView, `/nfts/${id(nftId)}`);
  health = () => this.view(ExplorerHealthView, '/health');
  metrics = () => this.view(ExplorerMetricsView, '/metrics');

  /** New blocks, transactions or instructions (as their list items), resuming after drops. */
  stream = (
    kind: 'blocks' | 'transactions' | 'instructions',
    o: ExplorerStreamOptions & InstructionFilterOptions = {},
  ): AsyncGenerator<ExplorerStreamItem> =>
    explorerStream(
      this.http,
      kind,
      kind === 'blocks' ? {} : kind === 'transactions' ? txQuery(o) : insQuery(o),
      o,
    );
}

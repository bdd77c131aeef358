// The explorer's pages of the dashboard (a DashboardExtension, built with the `torana:dashboard` parts;
// found by convention by the dashboard module's build and type-checked with its ui/tsconfig.json; docs/explorer.md
// "Dashboard"): blocks (page 1 grows with the block stream) with the latest transactions, one block, one
// transaction (its data events: those the live feed saw, else replayed from the node's event stream), the
// paged lists of accounts, domains, asset definitions and NFTs, one domain, one asset definition (holder
// snapshot: Gini coefficient, Lorenz points, largest holders; econometrics of the recent blocks), a panel
// on an account's page (owned counts, QR code of the id), block heights and transaction or block hashes in
// the search box, and the newest blocks the live feed catches up with when it (re)connects.

import {
  AccountLink,
  AssetLink,
  BlockLink,
  type DashboardExtension,
  type DataEvent,
  enc,
  Facts,
  getJson,
  href,
  isRejection,
  Json,
  Loaded,
  type Match,
  NODE_URL,
  Page,
  type PastEvents,
  pastEvents,
  type RecentBlock,
  readableRejection,
  short,
  Table,
  TxLink,
  time,
  useFeed,
  useJson,
  useRoute,
} from 'torana:dashboard';
import { html } from 'htm/preact';
import type { FunctionComponent, VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * New items of a stream of the explorer (`/v1/explorer/{blocks,transactions}/stream`, event `what`),
 * newest first, at most `max`; nothing while `on` is false. No Last-Event-ID: the page lists what came before.
 */
function useExplorerStream<T>(kind: string, what: string, on: boolean, max = 20): T[] {
  const [items, setItems] = useState<T[]>([]);
  useEffect(() => {
    if (!on) return;
    const source = new EventSource(`${NODE_URL}/v1/explorer/${kind}/stream`);
    source.addEventListener(what, (e) => {
      const item = JSON.parse((e as MessageEvent<string>).data) as T;
      setItems((l) => [item, ...l].slice(0, max));
    });
    return () => source.close();
  }, [kind, what, on]);
  return items;
}

// ---- lists ----------------------------------------------------------------------------------------

interface Paged<T> {
  pagination: { page: number; per_page: number; total_pages: number; total_items: number };
  items: T[];
}
interface AccountRow {
  id: string;
  domain: string;
  asset_count: number;
  role_count: number;
  owned_domains: number;
  owned_nfts: number;
}
interface DomainRow {
  id: string;
  owned_by: string;
  account_count: number;
  asset_definition_count: number;
  nft_count: number;
  metadata: Record<string, unknown>;
}
interface DefinitionRow {
  id: string;
  total_quantity: string;
  owned_by: string;
  holder_count: number;
}
interface NftRow {
  id: string;
  domain: string;
  owned_by: string;
}

const LIST_PER_PAGE = 50;

const DomainLink = ({ id }: { id: string }) => html`<a href=${href('domain', id)}>${id}</a>`;

/** One page of a list with its pager (`#/<route>?page=N`). */
function PagedTable<T>(p: {
  title: string;
  route: string;
  path: string;
  page: number;
  columns: { label: string; cell: (row: T) => unknown }[];
}): VNode {
  const sep = p.path.includes('?') ? '&' : '?';
  const answer = useJson<Paged<T>>(`${p.path}${sep}page=${p.page}&per_page=${LIST_PER_PAGE}`);
  return html`<${Page} title=${p.title}>
    <${Loaded} answer=${answer}>
      ${(l: Paged<T>) => html`
        <${Table}
          caption=${`${p.title}: page ${l.pagination.page} of ${Math.max(1, l.pagination.total_pages)} (${l.pagination.total_items} in all)`}
          rows=${l.items}
          columns=${p.columns}
        />
        <nav class="pager" aria-label=${`Pages of ${p.title.toLowerCase()}`}>
          ${p.page > 1 ? html`<a href=${`${href(p.route)}?page=${p.page - 1}`}>Previous</a>` : null}
          ${p.page < l.pagination.total_pages ? html`<a href=${`${href(p.route)}?page=${p.page + 1}`}>Next</a>` : null}
        </nav>`}
    <//>
  <//>`;
}

const AccountsList = ({ page }: { page: number }) =>
  html`<${PagedTable}
    title="Accounts"
    route="accounts"
    path="/v1/explorer/accounts"
    page=${page}
    columns=${[
      { label: 'Account', cell: (a: AccountRow) => html`<${AccountLink} id=${a.id} />` },
      { label: 'Domain', cell: (a: AccountRow) => html`<${DomainLink} id=${a.domain} />` },
      { label: 'Balances', cell: (a: AccountRow) => a.asset_count },
      { label: 'NFTs', cell: (a: AccountRow) => a.owned_nfts },
      { label: 'Domains owned', cell: (a: AccountRow) => a.owned_domains },
    ]}
  />`;

const Domains = ({ page }: { page: number }) =>
  html`<${PagedTable}
    title="Domains"
    route="domains"
    path="/v1/explorer/domains"
    page=${page}
    columns=${[
      { label: 'Domain', cell: (d: DomainRow) => html`<${DomainLink} id=${d.id} />` },
      { label: 'Owner', cell: (d: DomainRow) => html`<${AccountLink} id=${d.owned_by} />` },
      { label: 'Accounts', cell: (d: DomainRow) => d.account_count },
      { label: 'Asset definitions', cell: (d: DomainRow) => d.asset_definition_count },
      { label: 'NFTs', cell: (d: DomainRow) => d.nft_count },
    ]}
  />`;

const AssetDefinitions = ({ page }: { page: number }) =>
  html`<${PagedTable}
    title="Asset definitions"
    route="assets"
    path="/v1/explorer/asset-definitions"
    page=${page}
    columns=${[
      { label: 'Definition', cell: (d: DefinitionRow) => html`<${AssetLink} id=${d.id} />` },
      {
        label: 'Total quantity',
        cell: (d: DefinitionRow) => html`<span class="num">${d.total_quantity}</span>`,
      },
      { label: 'Holders', cell: (d: DefinitionRow) => d.holder_count },
      { label: 'Owner', cell: (d: DefinitionRow) => html`<${AccountLink} id=${d.owned_by} />` },
    ]}
  />`;

const Nfts = ({ page }: { page: number }) =>
  html`<${PagedTable}
    title="NFTs"
    route="nfts"
    path="/v1/explorer/nfts"
    page=${page}
    columns=${[
      { label: 'NFT', cell: (n: NftRow) => html`<span class="mono">${n.id}</span>` },
      { label: 'Domain', cell: (n: NftRow) => html`<${DomainLink} id=${n.domain} />` },
      { label: 'Owner', cell: (n: NftRow) => html`<${AccountLink} id=${n.owned_by} />` },
    ]}
  />`;

function Domain({ id }: { id: string }) {
  const answer = useJson<DomainRow>(`/v1/explorer/domains/${enc(id)}`);
  return html`<${Page} title=${`Domain ${id}`}>
    <${Loaded} answer=${answer}>
      ${(d: DomainRow) => html`<${Facts}
          items=${[
            ['Owner', html`<${AccountLink} id=${d.owned_by} />`],
            ['Accounts', html`<span data-testid="domain-accounts">${d.account_count}</span>`],
            ['Asset definitions', d.asset_definition_count],
            ['NFTs', d.nft_count],
          ]}
        />
        <h2>Metadata</h2>
        <${Json} value=${d.metadata} label="Domain metadata" />`}
    <//>
  <//>`;
}

// ---- blocks ---------------------------------------------------------------------------------------

interface BlockRow {
  height: number;
  hash: string;
  creation_time_ms: number;
  view: number;
  transaction_count: number;
  rejected_count: number;
}
interface TxRow {
  hash: string;
  block_height: number;
  authority: string;
  creation_time_ms: number;
  instruction_count: number;
  result: { kind: string };
}
interface BlockDetail extends BlockRow {
  prev_hash: string;
  state_root: string;
  transactions: TxRow[];
  certificate: unknown;
}

const BLOCKS_PER_PAGE = 20;

const txColumns = [
  { label: 'Hash', cell: (t: TxRow) => html`<${TxLink} hash=${t.hash} />` },
  { label: 'Block', cell: (t: TxRow) => html`<${BlockLink} height=${t.block_height} />` },
  { label: 'Authority', cell: (t: TxRow) => html`<${AccountLink} id=${t.authority} />` },
  { label: 'Instructions', cell: (t: TxRow) => t.instruction_count },
  { label: 'Status', cell: (t: TxRow) => t.result.kind },
];

/** Blocks committed since the page loaded (the block stream) above the page's rows; page 1 only. */
function withNew(rows: BlockRow[], fresh: BlockRow[]): BlockRow[] {
  const top = rows[0]?.height ?? 0;
  return [...fresh.filter((b) => b.height > top), ...rows].slice(0, BLOCKS_PER_PAGE);
}

function LatestTransactions({ again }: { again: number }) {
  const answer = useJson<{ items: TxRow[] }>('/v1/explorer/transactions/latest?limit=10', again);
  return html`<${Loaded} answer=${answer}>
    ${(l: { items: TxRow[] }) => html`<${Table} caption="Latest transactions" rows=${l.items} columns=${txColumns} />`}
  <//>`;
}

function Blocks({ page }: { page: number }) {
  const answer = useJson<Paged<BlockRow>>(`/v1/explorer/blocks?page=${page}&per_page=${BLOCKS_PER_PAGE}`);
  const fresh = useExplorerStream<BlockRow>('blocks', 'block', page === 1);
  return html`<${Page} title="Blocks">
    <${Loaded} answer=${answer}>
      ${(b: Paged<BlockRow>) => html`
        <${Table}
          caption=${`Blocks, newest first (page ${b.pagination.page} of ${b.pagination.total_pages})`}
          rows=${page === 1 ? withNew(b.items, fresh) : b.items}
          columns=${[
            { label: 'Height', cell: (r: BlockRow) => html`<${BlockLink} height=${r.height} />` },
            {
              label: 'Hash',
              cell: (r: BlockRow) => html`<span class="mono" title=${r.hash}>${short(r.hash)}</span>`,
            },
            { label: 'Created', cell: (r: BlockRow) => time(r.creation_time_ms) },
            { label: 'Transactions', cell: (r: BlockRow) => r.transaction_count },
            { label: 'Rejected', cell: (r: BlockRow) => r.rejected_count },
          ]}
        />
        <nav class="pager" aria-label="Pages of blocks">
          ${page > 1 ? html`<a href=${`${href('blocks')}?page=${page - 1}`}>Newer</a>` : null}
          ${page < b.pagination.total_pages ? html`<a href=${`${href('blocks')}?page=${page + 1}`}>Older</a>` : null}
        </nav>`}
    <//>
    ${page === 1 ? html`<${LatestTransactions} again=${fresh[0]?.height ?? 0} />` : null}
  <//>`;
}

function Block({ height }: { height: string }) {
  const answer = useJson<BlockDetail>(`/v1/explorer/blocks/${enc(height)}`);
  return html`<${Page} title=${`Block ${height}`}>
    <${Loaded} answer=${answer}>
      ${(b: BlockDetail) => html`
        <${Facts}
          items=${[
            ['Hash', html`<span class="mono">${b.hash}</span>`],
            ['Previous', b.height > 1 ? html`<${BlockLink} height=${b.height - 1} />` : 'genesis'],
            ['Created', time(b.creation_time_ms)],
            ['View', b.view],
            ['State root', html`<span class="mono">${b.state_root}</span>`],
            ['Transactions', `${b.transaction_count} (${b.rejected_count} rejected)`],
          ]}
        />
        <${Table} caption="Transactions of this block" rows=${b.transactions} columns=${txColumns} />
        <h2>Commit certificate</h2>
        <${Json} value=${b.certificate} label="Commit certificate" />`}
    <//>
  <//>`;
}

// ---- one asset definition -------------------------------------------------------------------------

interface Definition {
  id: string;
  domain: string;
  total_quantity: string;
  scale: number;
  mintable: { kind: string };
  owned_by: string;
  holder_count: number;
  metadata: Record<string, unknown>;
}
interface Holder {
  account_id: string;
  quantity: string;
  share_ppm: number;
}
interface Lorenz {
  holders_ppm: number;
  quantity_ppm: number;
}
interface Snapshot {
  height: number;
  holders: number;
  gini_ppm: number;
  lorenz: Lorenz[];
  top_holders: Holder[];
}
interface Econometrics {
  from_height: number;
  to_height: number;
  minted: string;
  burned: string;
  transfer_volume: string;
  mints: number;
  burns: number;
  transfers: number;
  supply: string;
}

const pct = (ppm: number) => `${(ppm / 10_000).toFixed(2)} %`;

function Distribution({ s }: { s: Snapshot }) {
  return html`<h2>Holders at height ${s.height}</h2>
    <${Facts} items=${[['Holders', s.holders], ['Gini coefficient', (s.gini_ppm / 1_000_000).toFixed(3)]]} />
    <${Table}
      caption=${`Largest holders (${s.top_holders.length} of ${s.holders})`}
      rows=${s.top_holders}
      columns=${[
        { label: 'Account', cell: (h: Holder) => html`<${AccountLink} id=${h.account_id} />` },
        {
          label: 'Balance',
          cell: (h: Holder) => html`<span class="num" data-holder=${h.account_id}>${h.quantity}</span>`,
        },
        { label: 'Share', cell: (h: Holder) => html`<span class="num">${pct(h.share_ppm)}</span>` },
      ]}
    />
    ${
      s.holders < 2
        ? html`<p data-testid="lorenz-none">${s.holders === 1 ? 'One holder holds the whole quantity' : 'No holders'}: no distribution to draw.</p>`
        : html`<${Table}
      caption="Lorenz curve: share of the quantity held by the poorest share of holders"
      rows=${s.lorenz}
      columns=${[
        {
          label: 'Poorest holders',
          cell: (p: Lorenz) => html`<span class="num">${pct(p.holders_ppm)}</span>`,
        },
        { label: 'Hold', cell: (p: Lorenz) => html`<span class="num">${pct(p.quantity_ppm)}</span>` },
      ]}
    />`
    }`;
}

function Activity({ e }: { e: Econometrics }) {
  return html`<h2>Blocks ${e.from_height}–${e.to_height}</h2>
    <${Facts} items=${[
      ['Supply', e.supply],
      ['Minted', `${e.minted} (${e.mints} mints)`],
      ['Burned', `${e.burned} (${e.burns} burns)`],
      ['Transferred', `${e.transfer_volume} (${e.transfers} transfers)`],
    ]} />`;
}

function AssetDefinition({ id }: { id: string }) {
  const base = `/v1/explorer/asset-definitions/${enc(id)}`;
  const def = useJson<Definition>(base);
  const snapshot = useJson<Snapshot>(`${base}/snapshot`);
  const econ = useJson<Econometrics>(`${base}/econometrics`);
  return html`<${Page} title=${`Asset ${id}`}>
    <${Loaded} answer=${def}>
      ${(d: Definition) => html`<${Facts}
        items=${[
          ['Domain', d.domain],
          ['Total quantity', d.total_quantity],
          ['Scale', d.scale],
          ['Mintable', d.mintable.kind],
          ['Owner', html`<${AccountLink} id=${d.owned_by} />`],
          ['Holders', d.holder_count],
        ]}
      />`}
    <//>
    <${Loaded} answer=${snapshot}>${(s: Snapshot) => html`<${Distribution} s=${s} />`}<//>
    <${Loaded} answer=${econ}>${(e: Econometrics) => html`<${Activity} e=${e} />`}<//>
    ${def?.ok ? html`<h2>Metadata</h2><${Json} value=${def.body.metadata} label="Definition metadata" />` : null}
  <//>`;
}

// ---- one transaction ------------------------------------------------------------------------------

interface TxDetail {
  hash: string;
  block_height: number;
  block_hash: string;
  authority: string;
  creation_time_ms: number;
  instructions: { kind: string }[];
  result: { kind: string; reason?: unknown };
  metadata: Record<string, unknown>;
}

/**
 * Why a transaction was rejected: its code and its message with amounts at their definition's scale
 * (rejections.ts); a reason of another shape as the node gave it.
 */
export function RejectionFacts({ reason }: { reason: unknown }) {
  if (!isRejection(reason)) return html`<${Json} value=${reason} label="Rejection reason" />`;
  return html`<${Facts}
    items=${[
      ['Code', html`<code data-testid="tx-rejection-code">${reason.code}</code>`],
      [
        'Message',
        html`<span data-testid="tx-rejection">${readableRejection(reason.code, reason.message)}</span>`,
      ],
      ...(reason.instruction_index === undefined ? [] : [['Instruction index', reason.instruction_index]]),
    ]}
  />`;
}

/** The events the live feed saw for `hash`, else those the node replays for its block. */
function Events({ hash, height }: { hash: string; height: number }) {
  const seen = useFeed().txEvents.get(hash);
  const [past, setPast] = useState<PastEvents | undefined>(undefined);
  useEffect(() => {
    if (seen !== undefined) return;
    let live = true;
    pastEvents(hash, height).then((p) => {
      if (live) setPast(p);
    });
    return () => {
      live = false;
    };
  }, [hash, height, seen === undefined]);
  const events: DataEvent[] | undefined = seen ?? (past?.ok ? past.events : undefined);
  if (events === undefined)
    return past === undefined
      ? html`<p role="status">Loading events…</p>`
      : html`<p class="muted">Events unavailable: ${past.ok ? '' : past.reason}.</p>`;
  if (events.length === 0)
    return html`<p class="muted" data-testid="tx-events">This transaction emitted no data events.</p>`;
  return html`<ol class="events" data-testid="tx-events">
    ${events.map((e, n) => html`<li data-event=${Object.keys(e.data)[0] ?? ''}><${Json} value=${e.data} label=${`Event ${n + 1}`} /></li>`)}
  </ol>`;
}

function Transaction({ hash }: { hash: string }) {
  const answer = useJson<TxDetail>(`/v1/explorer/transactions/${enc(hash)}`);
  return html`<${Page} title="Transaction">
    <${Loaded} answer=${answer}>
      ${(t: TxDetail) => html`
        <${Facts}
          items=${[
            ['Hash', html`<span class="mono" data-testid="tx-hash">${t.hash}</span>`],
            ['Status', html`<strong data-testid="tx-status">${t.result.kind}</strong>`],
            ['Block', html`<${BlockLink} height=${t.block_height} />`],
            ['Authority', html`<${AccountLink} id=${t.authority} />`],
            ['Created', time(t.creation_time_ms)],
          ]}
        />
        ${t.result.reason === undefined ? null : html`<h2>Rejection</h2><${RejectionFacts} reason=${t.result.reason} />`}
        <h2>Instructions (${t.instructions.length})</h2>
        <ol class="instructions">
          ${t.instructions.map(
            (i, n) => html`<li data-kind=${i.kind}>
              <h3>${i.kind}</h3>
              <${Json} value=${i} label=${`Instruction ${n + 1}, ${i.kind}`} />
            </li>`,
          )}
        </ol>
        <h2>Events</h2>
        <${Events} hash=${t.hash} height=${t.block_height} />`}
    <//>
  <//>`;
}

// ---- the account page's panel ---------------------------------------------------------------------

interface AccountCounts {
  owned_domains: number;
  owned_nfts: number;
  role_count: number;
}
interface Qr {
  svg: string;
  literal: string;
}

/** The account page's panel: owned counts and the QR code of the id (the roles are in the page's facts). */
function Summary({ id }: { id: string }) {
  const x = useJson<AccountCounts>(`/v1/explorer/accounts/${enc(id)}`);
  const qr = useJson<Qr>(`/v1/explorer/accounts/${enc(id)}/qr`);
  return html`<div class="summary">
    ${x?.ok ? html`<${Facts} items=${[['Domains owned', x.body.owned_domains], ['NFTs owned', x.body.owned_nfts]]} />` : null}
    ${qr?.ok ? html`<img class="qr" width="128" height="128" alt=${`QR code of ${qr.body.literal}`} src=${`data:image/svg+xml,${encodeURIComponent(qr.body.svg)}`} />` : null}
  </div>`;
}

// ---- search and the live feed's catch-up ----------------------------------------------------------

const found = async (ok: Promise<boolean>, m: Match): Promise<Match[]> => ((await ok) ? [m] : []);
const exists = (path: string) => getJson(path).then((a) => a.ok);

const HEIGHT = /^\d+$/;
const HASH = /^(0x)?[0-9a-f]{64}$/i;

/** A block height names that block; a 64-digit hex hash a transaction, else a block. */
async function searchChain(s: string): Promise<Match[]> {
  if (HEIGHT.test(s))
    return found(exists(`/v1/explorer/blocks/${s}`), { what: `Block ${s}`, to: href('block', s) });
  if (!HASH.test(s)) return [];
  const h = s.replace(/^0x/, '').toLowerCase();
  const tx = await found(exists(`/v1/explorer/transactions/${h}`), {
    what: 'Transaction',
    to: href('tx', h),
  });
  return tx.length > 0
    ? tx
    : found(exists(`/v1/explorer/blocks/${h}`), { what: 'Block', to: href('block', h) });
}

/** The newest committed blocks, newest first (the live feed's catch-up). */
async function recentBlocks(n: number): Promise<RecentBlock[]> {
  const a = await getJson<{ items: RecentBlock[] }>(`/v1/explorer/blocks?per_page=${n}`);
  return a.ok ? a.body.items : [];
}

// ---- the pages ------------------------------------------------------------------------------------

const num = (v: string | null, d: number) => {
  const n = Number(v);
  return Number.isSafeInteger(n) && n > 0 ? n : d;
};

/** A list page at its `?page=N` of the hash. */
const numbered =
  (List: FunctionComponent<{ page: number }>): FunctionComponent<{ arg: string }> =>
  () =>
    html`<${List} page=${num(useRoute().query.get('page'), 1)} />`;

const explorerDashboard: DashboardExtension = {
  pages: [
    { route: 'blocks', title: 'Blocks', path: '/v1/explorer/blocks', leading: true, Page: numbered(Blocks) },
    {
      route: 'accounts',
      title: 'Accounts',
      path: '/v1/explorer/accounts',
      leading: true,
      Page: numbered(AccountsList),
    },
    {
      route: 'domains',
      title: 'Domains',
      path: '/v1/explorer/domains',
      leading: true,
      Page: numbered(Domains),
    },
    {
      route: 'assets',
      title: 'Assets',
      path: '/v1/explorer/asset-definitions',
      leading: true,
      Page: numbered(AssetDefinitions),
    },
    { route: 'nfts', title: 'NFTs', path: '/v1/explorer/nfts', leading: true, Page: numbered(Nfts) },
    { route: 'block', Page: ({ arg }) => html`<${Block} height=${arg} />` },
    { route: 'tx', Page: ({ arg }) => html`<${Transaction} hash=${arg} />` },
    { route: 'asset', Page: ({ arg }) => html`<${AssetDefinition} id=${arg} />` },
    { route: 'domain', Page: ({ arg }) => html`<${Domain} id=${arg} />` },
  ],
  accountPanels: [{ path: '/v1/explorer/accounts/{id}', Panel: Summary }],
  search: searchChain,
  owns: (s) => HEIGHT.test(s) || HASH.test(s),
  searchHint: 'hash, height',
  recentBlocks,
};

export default explorerDashboard;

// Entity lists from the explorer's paged routes (`{pagination, items}`): accounts, domains, asset
// definitions and NFTs, each with the counts the explorer keeps, and one domain.

import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { enc } from './api.js';
import { useJson } from './hooks.js';
import { AccountLink, AssetLink, Facts, href, Json, Loaded, Page, Table } from './parts.js';

export interface Paged<T> {
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
export interface DomainRow {
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

const PER_PAGE = 50;

export const DomainLink = ({ id }: { id: string }) => html`<a href=${href('domain', id)}>${id}</a>`;

/** One page of an explorer list with its pager (`#/<route>?page=N`). */
function PagedTable<T>(p: {
  title: string;
  route: string;
  path: string;
  page: number;
  columns: { label: string; cell: (row: T) => unknown }[];
}): VNode {
  const sep = p.path.includes('?') ? '&' : '?';
  const answer = useJson<Paged<T>>(`${p.path}${sep}page=${p.page}&per_page=${PER_PAGE}`);
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

export const AccountsList = ({ page }: { page: number }) =>
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

export const Domains = ({ page }: { page: number }) =>
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

export const AssetDefinitions = ({ page }: { page: number }) =>
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

export const Nfts = ({ page }: { page: number }) =>
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

export function Domain({ id }: { id: string }) {
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

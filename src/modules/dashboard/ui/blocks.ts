// Blocks: the explorer's page of blocks (newest first; page 1 grows with the explorer's block stream)
// and its latest transactions, and one block with its transactions.

import { html } from 'htm/preact';
import { enc } from './api.js';
import { useExplorerStream, useJson } from './hooks.js';
import {
  AccountLink,
  BlockLink,
  Facts,
  href,
  Json,
  Loaded,
  Page,
  short,
  Table,
  TxLink,
  time,
} from './parts.js';

interface Paged<T> {
  pagination: { page: number; total_pages: number; total_items: number };
  items: T[];
}
export interface BlockRow {
  height: number;
  hash: string;
  creation_time_ms: number;
  view: number;
  transaction_count: number;
  rejected_count: number;
}
export interface TxRow {
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

const PER_PAGE = 20;

export const txColumns = [
  { label: 'Hash', cell: (t: TxRow) => html`<${TxLink} hash=${t.hash} />` },
  { label: 'Block', cell: (t: TxRow) => html`<${BlockLink} height=${t.block_height} />` },
  { label: 'Authority', cell: (t: TxRow) => html`<${AccountLink} id=${t.authority} />` },
  { label: 'Instructions', cell: (t: TxRow) => t.instruction_count },
  { label: 'Status', cell: (t: TxRow) => t.result.kind },
];

/** Blocks committed since the page loaded (explorer stream) above the page's rows; page 1 only. */
function withNew(rows: BlockRow[], fresh: BlockRow[]): BlockRow[] {
  const top = rows[0]?.height ?? 0;
  return [...fresh.filter((b) => b.height > top), ...rows].slice(0, PER_PAGE);
}

function LatestTransactions({ again }: { again: number }) {
  const answer = useJson<{ items: TxRow[] }>('/v1/explorer/transactions/latest?limit=10', again);
  return html`<${Loaded} answer=${answer}>
    ${(l: { items: TxRow[] }) => html`<${Table} caption="Latest transactions" rows=${l.items} columns=${txColumns} />`}
  <//>`;
}

export function Blocks({ page }: { page: number }) {
  const answer = useJson<Paged<BlockRow>>(`/v1/explorer/blocks?page=${page}&per_page=${PER_PAGE}`);
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

export function Block({ height }: { height: string }) {
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

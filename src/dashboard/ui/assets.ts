// Asset definitions (a page of the app API's list) and one definition with its holders.

import { html } from 'htm/preact';
import { type Balance, HolderColumns } from './accounts.js';
import { enc } from './api.js';
import { useJson } from './hooks.js';
import { AccountLink, AssetLink, Facts, Loaded, Page, Table } from './parts.js';

interface List<T> {
  items: T[];
  total: number;
}
interface Definition {
  id: string;
  domain: string;
  total_quantity: string;
  scale: number;
  mintable: { kind: string };
  owned_by: string;
}

export function AssetDefinitions() {
  const answer = useJson<List<Definition>>('/v1/assets/definitions?limit=100');
  return html`<${Page} title="Asset definitions">
    <${Loaded} answer=${answer}>
      ${(l: List<Definition>) => html`<${Table}
        caption=${`Asset definitions (${l.total})`}
        rows=${l.items}
        columns=${[
          { label: 'Definition', cell: (d: Definition) => html`<${AssetLink} id=${d.id} />` },
          {
            label: 'Total quantity',
            cell: (d: Definition) => html`<span class="num">${d.total_quantity}</span>`,
          },
          { label: 'Owner', cell: (d: Definition) => html`<${AccountLink} id=${d.owned_by} />` },
        ]}
      />`}
    <//>
  <//>`;
}

export function AssetDefinition({ id }: { id: string }) {
  const def = useJson<Definition>(`/v1/assets/definitions/${enc(id)}`);
  const holders = useJson<List<Balance>>(`/v1/assets/definitions/${enc(id)}/holders?limit=100`);
  return html`<${Page} title=${`Asset ${id}`}>
    <${Loaded} answer=${def}>
      ${(d: Definition) => html`<${Facts}
        items=${[
          ['Domain', d.domain],
          ['Total quantity', d.total_quantity],
          ['Scale', d.scale],
          ['Mintable', d.mintable.kind],
          ['Owner', html`<${AccountLink} id=${d.owned_by} />`],
        ]}
      />`}
    <//>
    <${Loaded} answer=${holders}>
      ${(l: List<Balance>) => html`<${Table} caption=${`Holders (${l.total})`} rows=${l.items} columns=${HolderColumns} />`}
    <//>
  <//>`;
}

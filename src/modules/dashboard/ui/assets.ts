// One asset definition from the explorer: the definition with its holder count, the holder snapshot
// (Gini coefficient, Lorenz curve points, largest holders) and the econometrics of the recent blocks.

import { html } from 'htm/preact';
import { enc } from './api.js';
import { useJson } from './hooks.js';
import { AccountLink, Facts, Json, Loaded, Page, Table } from './parts.js';

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

export function AssetDefinition({ id }: { id: string }) {
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

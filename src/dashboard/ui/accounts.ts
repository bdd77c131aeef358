// One account: balances and permissions (app route), owned counts and QR code (explorer), aliases.

import { html } from 'htm/preact';
import { useContext } from 'preact/hooks';
import { enc } from './api.js';
import { PathsContext } from './context.js';
import { useJson, usePostJson } from './hooks.js';
import { AssetLink, Facts, Json, Loaded, Page, Table } from './parts.js';

interface AccountRow {
  id: string;
  domain: string;
}
export interface Balance {
  id: string;
  definition: string;
  account: string;
  value: string;
}
interface Account extends AccountRow {
  signatory: string;
  metadata: Record<string, unknown>;
  assets: Balance[];
  assets_total: number;
  permissions: { name: string; payload: unknown }[];
  roles: string[];
}

interface Explorer {
  owned_domains: number;
  owned_nfts: number;
  role_count: number;
}
interface Qr {
  svg: string;
  literal: string;
}

/** Owned counts and the QR code of the id (explorer routes), when the node serves them (the roles are in the facts above). */
function Summary({ id }: { id: string }) {
  const x = useJson<Explorer>(`/v1/explorer/accounts/${enc(id)}`);
  const qr = useJson<Qr>(`/v1/explorer/accounts/${enc(id)}/qr`);
  return html`<div class="summary">
    ${x?.ok ? html`<${Facts} items=${[['Domains owned', x.body.owned_domains], ['NFTs owned', x.body.owned_nfts]]} />` : null}
    ${qr?.ok ? html`<img class="qr" width="128" height="128" alt=${`QR code of ${qr.body.literal}`} src=${`data:image/svg+xml,${encodeURIComponent(qr.body.svg)}`} />` : null}
  </div>`;
}

interface AliasList {
  total: number;
  items: { alias: string; index: number; is_primary: boolean }[];
}

/** The account's aliases (POST /v1/aliases/by_account), when the node serves alias look-ups. */
function Aliases({ id }: { id: string }) {
  const answer = usePostJson<AliasList>('/v1/aliases/by_account', { account_id: id, limit: 100 });
  if (answer === undefined || !answer.ok) return null;
  return html`<${Table}
    caption=${`Aliases (${answer.body.total})`}
    rows=${answer.body.items}
    columns=${[
      {
        label: 'Alias',
        cell: (a: AliasList['items'][number]) =>
          html`<span class="mono" data-alias=${a.alias}>${a.alias}</span>`,
      },
      { label: 'Index', cell: (a: AliasList['items'][number]) => a.index },
      { label: 'Primary', cell: (a: AliasList['items'][number]) => (a.is_primary ? 'yes' : 'no') },
    ]}
  />`;
}

export function AccountPage({ id }: { id: string }) {
  const answer = useJson<Account>(`/v1/accounts/${enc(id)}`);
  const paths = useContext(PathsContext);
  return html`<${Page} title="Account">
    <${Loaded} answer=${answer}>
      ${(a: Account) => html`
        <${Facts}
          items=${[
            ['Id', html`<span class="mono">${a.id}</span>`],
            ['Domain', a.domain],
            ['Signatory', html`<span class="mono">${a.signatory}</span>`],
            ['Roles', a.roles.length === 0 ? 'none' : a.roles.join(', ')],
          ]}
        />
        <${Table}
          caption=${`Balances (${a.assets_total})`}
          rows=${a.assets}
          columns=${[
            { label: 'Asset', cell: (b: Balance) => html`<${AssetLink} id=${b.definition} />` },
            {
              label: 'Balance',
              cell: (b: Balance) => html`<span class="num" data-asset=${b.definition}>${b.value}</span>`,
            },
          ]}
        />
        ${paths.has('/v1/explorer/accounts/{id}') ? html`<${Summary} id=${a.id} />` : null}
        ${paths.has('/v1/aliases/by_account') ? html`<${Aliases} id=${a.id} />` : null}
        <${Table}
          caption="Permissions"
          rows=${a.permissions}
          columns=${[
            { label: 'Name', cell: (p: Account['permissions'][number]) => p.name },
            {
              label: 'Payload',
              cell: (p: Account['permissions'][number]) =>
                p.payload === null ? '–' : JSON.stringify(p.payload),
            },
          ]}
        />
        <h2>Metadata</h2>
        <${Json} value=${a.metadata} label="Account metadata" />`}
    <//>
  <//>`;
}

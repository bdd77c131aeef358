// Accounts (a page of the app API's list) and one account with its balances and permissions.

import { html } from 'htm/preact';
import { useContext } from 'preact/hooks';
import { enc } from './api.js';
import { PathsContext } from './context.js';
import { useJson, usePostJson } from './hooks.js';
import { AccountLink, AssetLink, Facts, href, Json, Loaded, Page, Table } from './parts.js';

interface List<T> {
  items: T[];
  total: number;
}
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

const LIMIT = 50;

export function Accounts({ offset }: { offset: number }) {
  const answer = useJson<List<AccountRow>>(`/v1/accounts?limit=${LIMIT}&offset=${offset}`);
  return html`<${Page} title="Accounts">
    <${Loaded} answer=${answer}>
      ${(l: List<AccountRow>) => html`
        <${Table}
          caption=${`Accounts ${l.items.length === 0 ? 0 : offset + 1}–${offset + l.items.length} of ${l.total}`}
          rows=${l.items}
          columns=${[
            { label: 'Account', cell: (a: AccountRow) => html`<${AccountLink} id=${a.id} />` },
            { label: 'Domain', cell: (a: AccountRow) => a.domain },
          ]}
        />
        <nav class="pager" aria-label="Pages of accounts">
          ${offset > 0 ? html`<a href=${`${href('accounts')}?offset=${Math.max(0, offset - LIMIT)}`}>Previous</a>` : null}
          ${offset + LIMIT < l.total ? html`<a href=${`${href('accounts')}?offset=${offset + LIMIT}`}>Next</a>` : null}
        </nav>`}
    <//>
  <//>`;
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

export const HolderColumns = [
  { label: 'Account', cell: (b: Balance) => html`<${AccountLink} id=${b.account} />` },
  { label: 'Balance', cell: (b: Balance) => html`<span class="num">${b.value}</span>` },
];

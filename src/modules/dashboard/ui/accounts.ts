// One account: balances and permissions (app route), the ledger modules' panels (extensions.ts).

import { html } from 'htm/preact';
import { useContext } from 'preact/hooks';
import { enc } from './api.js';
import { PathsContext } from './context.js';
import { EXTENSIONS } from './extensions.js';
import { useJson } from './hooks.js';
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
        ${EXTENSIONS.flatMap((x) => x.accountPanels ?? [])
          .filter((p) => paths.has(p.path))
          .map(({ path, Panel }) => html`<${Panel} key=${path} id=${a.id} />`)}
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

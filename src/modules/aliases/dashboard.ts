// The aliases module's part of the dashboard (built with the `torana:dashboard` parts; found by
// convention by the dashboard module's build and type-checked with its ui/tsconfig.json): an
// account's aliases on its page, and account aliases (`label@domain`) and asset aliases (`label`) in the
// search box.

import { type DashboardExtension, href, type Match, postJson, Table, usePostJson } from 'torana:dashboard';
import { html } from 'htm/preact';

/** Same literal rule as the ledger's alias labels (literal.ts). */
const LABEL = /^[a-z0-9][a-z0-9._-]{0,63}$/;

interface AliasList {
  total: number;
  items: { alias: string; index: number; is_primary: boolean }[];
}

/** The account's aliases (POST /v1/aliases/by_account). */
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

async function accountAlias(alias: string): Promise<Match[]> {
  const a = await postJson<{ account_id: string }>('/v1/aliases/resolve', { alias });
  return a.ok ? [{ what: `Account alias ${alias}`, to: href('account', a.body.account_id) }] : [];
}

async function assetAlias(alias: string): Promise<Match[]> {
  const a = await postJson<{ asset_definition_id: string }>('/v1/assets/aliases/resolve', { alias });
  return a.ok ? [{ what: `Asset alias ${alias}`, to: href('asset', a.body.asset_definition_id) }] : [];
}

const aliasesDashboard: DashboardExtension = {
  accountPanels: [{ path: '/v1/aliases/by_account', Panel: Aliases }],
  // Anything with one `@` that is no account id may be an account alias; a bare label an asset alias (an
  // asset alias and a domain may share a name: the search lists both).
  search: async (text) =>
    text.includes('@') ? accountAlias(text) : LABEL.test(text) ? assetAlias(text) : [],
  searchHint: 'alias',
};

export default aliasesDashboard;

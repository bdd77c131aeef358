// Search by account id, asset definition id or domain id, and by the names and forms the ledger modules
// know (extensions.ts; a block height or hash is a form). The query is looked up on every route it could
// name; one match opens its page, several are listed (a module's name and a domain may be spelled alike).

import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { enc, getJson } from './api.js';
import { type DashboardExtension, EXTENSIONS, type Match } from './extensions.js';
import { href, Page } from './parts.js';

export type { Match } from './extensions.js';

/** An account id is `<public key text>@<domain>`; anything else with one `@` may be a module's name. */
const ACCOUNT_ID = /^(ed0120[0-9a-f]{64}|ea0130[0-9a-f]{96})@/i;

const found = async (ok: Promise<boolean>, m: Match): Promise<Match[]> => ((await ok) ? [m] : []);
const exists = (path: string) => getJson(path).then((a) => a.ok);

/** The pages `s` names as one of the modules' names (in module order). */
const named = (s: string, extensions: readonly DashboardExtension[]): Promise<Match[]>[] =>
  extensions.flatMap((x) => (x.search === undefined ? [] : [x.search(s)]));

/** Every page the query names (none when nothing matches). */
export async function resolveQuery(
  q: string,
  extensions: readonly DashboardExtension[] = EXTENSIONS,
): Promise<Match[]> {
  const s = q.trim();
  if (s === '') return [];
  if (s.includes('@')) {
    if (ACCOUNT_ID.test(s))
      return found(exists(`/v1/accounts/${enc(s)}`), { what: 'Account', to: href('account', s) });
    return (await Promise.all(named(s, extensions))).flat();
  }
  if (s.includes('#'))
    return found(exists(`/v1/assets/definitions/${enc(s)}`), {
      what: 'Asset definition',
      to: href('asset', s),
    });
  // A module's own form (a block height, a hash) is looked up by its owners only.
  const owners = extensions.filter((x) => x.owns?.(s) === true);
  if (owners.length > 0) return (await Promise.all(named(s, owners))).flat();
  const lookups = [
    ...named(s, extensions),
    found(exists(`/v1/domains/${enc(s)}`), { what: `Domain ${s}`, to: href('domain', s) }),
  ];
  return (await Promise.all(lookups)).flat();
}

export function SearchForm() {
  const [q, setQ] = useState('');
  const submit = (e: Event) => {
    e.preventDefault();
    location.hash = `#/search?q=${enc(q.trim())}`;
  };
  return html`<form role="search" class="search" onSubmit=${submit}>
    <label for="search-input">Search</label>
    <input
      id="search-input"
      name="q"
      type="search"
      placeholder=${['account, asset', ...EXTENSIONS.flatMap((x) => x.searchHint ?? [])].join(', ')}
      autocomplete="off"
      value=${q}
      onInput=${(e: Event) => setQ((e.target as HTMLInputElement).value)}
    />
    <button type="submit">Go</button>
  </form>`;
}

export function SearchPage({ q }: { q: string }) {
  const [matches, setMatches] = useState<Match[] | undefined>(undefined);
  useEffect(() => {
    let live = true;
    setMatches(undefined);
    resolveQuery(q).then((m) => {
      if (!live) return;
      if (m.length === 1) location.replace(m[0]!.to);
      else setMatches(m);
    });
    return () => {
      live = false;
    };
  }, [q]);
  const body =
    matches === undefined
      ? html`<p role="status">Looking up <code>${q}</code>…</p>`
      : matches.length === 0
        ? html`<p role="alert">Nothing on this node matches <code>${q}</code>.</p>`
        : html`<p role="status">${matches.length} matches for <code>${q}</code>:</p>
            <ul>${matches.map((m) => html`<li><a href=${m.to}>${m.what}</a></li>`)}</ul>`;
  return html`<${Page} title="Search">${body}<//>`;
}

// Search by transaction or block hash, block height, account id, asset definition id or domain id: the query is
// looked up on the node's routes and the first match opens its page. Aliases join once the node has them.

import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { enc, getJson } from './api.js';
import { href, Page } from './parts.js';

/** The page a query names, or undefined when nothing matches. */
export async function resolveQuery(q: string): Promise<string | undefined> {
  const s = q.trim();
  if (s === '') return undefined;
  if (/^\d+$/.test(s)) return (await getJson(`/v1/explorer/blocks/${s}`)).ok ? href('block', s) : undefined;
  if (/^(0x)?[0-9a-f]{64}$/i.test(s)) {
    const h = s.replace(/^0x/, '').toLowerCase();
    if ((await getJson(`/v1/explorer/transactions/${h}`)).ok) return href('tx', h);
    return (await getJson(`/v1/explorer/blocks/${h}`)).ok ? href('block', h) : undefined;
  }
  if (s.includes('@')) return (await getJson(`/v1/accounts/${enc(s)}`)).ok ? href('account', s) : undefined;
  if (s.includes('#'))
    return (await getJson(`/v1/assets/definitions/${enc(s)}`)).ok ? href('asset', s) : undefined;
  return (await getJson(`/v1/domains/${enc(s)}`)).ok ? href('domain', s) : undefined;
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
      placeholder="hash, height, account, asset"
      autocomplete="off"
      value=${q}
      onInput=${(e: Event) => setQ((e.target as HTMLInputElement).value)}
    />
    <button type="submit">Go</button>
  </form>`;
}

export function SearchPage({ q }: { q: string }) {
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    let live = true;
    setMissing(false);
    resolveQuery(q).then((to) => {
      if (!live) return;
      if (to === undefined) setMissing(true);
      else location.replace(to);
    });
    return () => {
      live = false;
    };
  }, [q]);
  return html`<${Page} title="Search">
    ${missing ? html`<p role="alert">Nothing on this node matches <code>${q}</code>.</p>` : html`<p role="status">Looking up <code>${q}</code>…</p>`}
  <//>`;
}

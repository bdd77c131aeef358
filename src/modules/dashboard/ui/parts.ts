// Building blocks of the pages: links to entities, tables, key/value lists, answers that failed.

import { html } from 'htm/preact';
import type { ComponentChildren, VNode } from 'preact';
import type { Answer } from './api.js';

export const short = (h: string, n = 10): string =>
  h.length > 2 * n ? `${h.slice(0, n)}…${h.slice(-4)}` : h;

/** An account id shortened in its signatory only: the `@domain` is never cut (`ed0120AB12CD…9F3A@wonderland`). */
export const shortAccount = (id: string): string => {
  const at = id.lastIndexOf('@');
  return at < 0 ? short(id, 12) : `${short(id.slice(0, at), 12)}${id.slice(at)}`;
};

export const href = (...parts: (string | number)[]): string =>
  `#/${parts.map((p) => encodeURIComponent(String(p))).join('/')}`;

export const TxLink = ({ hash }: { hash: string }) =>
  html`<a href=${href('tx', hash)} class="mono" title=${hash} data-hash=${hash}>${short(hash)}</a>`;
export const BlockLink = ({ height }: { height: number }) =>
  html`<a href=${href('block', height)}>#${height}</a>`;
export const AccountLink = ({ id }: { id: string }) =>
  html`<a href=${href('account', id)} class="mono" title=${id} data-account=${id}>${shortAccount(id)}</a>`;
export const AssetLink = ({ id }: { id: string }) => html`<a href=${href('asset', id)}>${id}</a>`;

export const time = (ms: number): string =>
  new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');

/** A page's frame: its heading (the page's one h1) and content. */
export function Page({ title, children }: { title: string; children?: ComponentChildren }): VNode {
  return html`<section aria-labelledby="page-title"><h1 id="page-title">${title}</h1>${children}</section>`;
}

/** Loading, an error answer, or the content of a good one. */
export function Loaded<T>({
  answer,
  children,
}: {
  answer: Answer<T> | undefined;
  children: (body: T) => VNode;
}) {
  if (answer === undefined) return html`<p role="status">Loading…</p>`;
  if (!answer.ok)
    return html`<p class="error" role="alert">
      ${answer.status === 0 ? 'Node unreachable' : `HTTP ${answer.status}`}: <code>${answer.error.code}</code>
      ${answer.error.message}
    </p>`;
  return children(answer.body);
}

export interface Column<T> {
  label: string;
  cell: (row: T) => unknown;
}

/** A table in a scrolling region (phones): caption, header cells with scope. */
export function Table<T>({ caption, rows, columns }: { caption: string; rows: T[]; columns: Column<T>[] }) {
  return html`<div class="scroll" role="region" aria-label=${caption} tabindex="0">
    <table>
      <caption>${caption}</caption>
      <thead><tr>${columns.map((c) => html`<th scope="col">${c.label}</th>`)}</tr></thead>
      <tbody>
        ${rows.length === 0 ? html`<tr><td colspan=${columns.length}>None</td></tr>` : null}
        ${rows.map((r) => html`<tr>${columns.map((c) => html`<td>${c.cell(r)}</td>`)}</tr>`)}
      </tbody>
    </table>
  </div>`;
}

/** Label/value pairs as a description list. */
export function Facts({ items }: { items: [string, unknown][] }) {
  return html`<dl class="facts">${items.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}</dl>`;
}

export const Json = ({ value, label }: { value: unknown; label: string }) =>
  html`<pre class="json" tabindex="0" role="region" aria-label=${label}>${JSON.stringify(value, null, 2)}</pre>`;

// The ISO 20022 bridge's page of the dashboard, `#/iso` (a DashboardExtension, built with the `torana:dashboard` parts):
// the bridge's messages: the list (the audit manifest paged from its newest entries, one row per
// message with its latest status in the page) and one message (its canonical record and the XML reports
// the bridge generates for it). The bridge's read routes need a participant's signature or an operator
// session: the dashboard uses the operator session of the settings page (session.ts; docs/dashboard.md
// "Operator sign-in"; docs/iso20022.md "Dashboard").

import {
  AccountLink,
  type Answer,
  AssetLink,
  BlockLink,
  currentSession,
  type DashboardExtension,
  enc,
  Facts,
  getJson,
  getText,
  href,
  Json,
  Loaded,
  Page,
  sessionHeaders,
  Table,
  TxLink,
  time,
  useRoute,
} from 'torana:dashboard';
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';

interface AuditEntry {
  seq: number;
  time_ms: number;
  message_id: string;
  event: string;
  status: string;
}
interface AuditPage {
  total: number;
  entries: AuditEntry[];
}
interface IsoRecord {
  message_id: string;
  kind: string;
  message_definition_id: string;
  received_at_ms: number;
  updated_at_ms: number;
  status: string;
  pacs002_code: string;
  resolution?: string;
  reason_code?: string;
  reason_text?: string;
  ledger_id: string;
  transaction_hash?: string;
  block_height?: number;
  original_message_id?: string;
  transfers: { leg: string; source: string; destination: string; asset_definition: string; amount: string }[];
  links: { kind: string; message_id: string }[];
}

type Transfer = IsoRecord['transfers'][number];

const ENTRIES = 200;

function SignInFirst() {
  return html`<p role="alert">The bridge's messages are read with an operator session (or a participant's signature).
    <a href="#/settings">Sign in as an operator</a> on the settings page.</p>`;
}

/** One GET with the session's bearer token, again when `path` changes; none while `path` is undefined. */
function useAuthed<T>(
  path: string | undefined,
  read: (p: string) => Promise<Answer<T>>,
): Answer<T> | undefined {
  const [answer, setAnswer] = useState<Answer<T> | undefined>(undefined);
  useEffect(() => {
    if (path === undefined) return;
    let live = true;
    setAnswer(undefined);
    read(path).then((a) => {
      if (live) setAnswer(a);
    });
    return () => {
      live = false;
    };
  }, [path]);
  return answer;
}

/** Page `page` (1 = the newest) of `per` audit entries counted from the newest, and where it starts. */
export function entryWindow(total: number, page: number, per: number): { offset: number; limit: number } {
  const end = Math.max(0, total - (page - 1) * per);
  const offset = Math.max(0, end - per);
  return { offset, limit: end - offset };
}

interface EntryPage extends AuditPage {
  offset: number;
}

/** The total first, then the window of page `page`; nothing asked when the page is past the oldest entry. */
async function entriesPage(page: number, per: number): Promise<Answer<EntryPage>> {
  const h = sessionHeaders();
  const head = await getJson<AuditPage>('/v1/iso20022/audit/messages?limit=1', undefined, h);
  if (!head.ok) return head;
  const { offset, limit } = entryWindow(head.body.total, page, per);
  if (limit === 0) return { ...head, body: { total: head.body.total, entries: [], offset } };
  const a = await getJson<AuditPage>(
    `/v1/iso20022/audit/messages?limit=${limit}&offset=${offset}`,
    undefined,
    h,
  );
  return a.ok ? { ...a, body: { ...a.body, offset } } : a;
}

interface MessageRow {
  id: string;
  first: number;
  last: number;
  event: string;
  status: string;
}

function rowsOf(entries: AuditEntry[]): MessageRow[] {
  const by = new Map<string, MessageRow>();
  for (const e of entries) {
    const r = by.get(e.message_id);
    if (r === undefined)
      by.set(e.message_id, {
        id: e.message_id,
        first: e.time_ms,
        last: e.time_ms,
        event: e.event,
        status: e.status,
      });
    else Object.assign(r, { last: e.time_ms, event: e.event, status: e.status });
  }
  return [...by.values()].sort((a, b) => b.last - a.last);
}

const pageHref = (page: number, per: number) =>
  `${href('iso')}?page=${page}${per === ENTRIES ? '' : `&per=${per}`}`;

/** Previous (newer entries) and next (older entries) pages of the audit manifest. */
function IsoPager({ page, per, p }: { page: number; per: number; p: EntryPage }) {
  return html`<nav class="pager" aria-label="Pages of audit entries">
    ${page > 1 ? html`<a href=${pageHref(page - 1, per)} rel="prev">Previous (newer)</a>` : null}
    ${p.offset > 0 ? html`<a href=${pageHref(page + 1, per)} rel="next">Next (older)</a>` : null}
  </nav>`;
}

function captionOf(page: number, per: number, p: EntryPage): string {
  const pages = Math.max(1, Math.ceil(p.total / per));
  if (p.entries.length === 0) return `No audit entries on page ${page} of ${pages} (${p.total} in all)`;
  const last = p.offset + p.entries.length;
  return `Messages in audit entries ${p.offset + 1} to ${last} of ${p.total}, latest first (page ${page} of ${pages})`;
}

/** Page `page` of `per` audit entries (newest first), one row per message: `#/iso?page=N&per=M`. */
export function IsoMessages({ page = 1, per = ENTRIES }: { page?: number; per?: number }) {
  const signedIn = currentSession() !== undefined;
  const size = Math.min(per, ENTRIES);
  const answer = useAuthed(signedIn ? `audit/${page}/${size}` : undefined, () => entriesPage(page, size));
  return html`<${Page} title="ISO 20022 messages">
    ${
      signedIn
        ? html`<${Loaded} answer=${answer}>${(p: EntryPage) => html`<${Table}
            caption=${captionOf(page, size, p)}
            rows=${rowsOf(p.entries)}
            columns=${[
              {
                label: 'Message',
                cell: (r: MessageRow) => html`<a href=${href('iso', r.id)} class="mono">${r.id}</a>`,
              },
              {
                label: 'Status (pacs.002)',
                cell: (r: MessageRow) => html`<span data-iso-status=${r.id}>${r.status}</span>`,
              },
              { label: 'Last event', cell: (r: MessageRow) => r.event },
              { label: 'Received', cell: (r: MessageRow) => time(r.first) },
              { label: 'Updated', cell: (r: MessageRow) => time(r.last) },
            ]}
          /><${IsoPager} page=${page} per=${size} p=${p} />`}<//>`
        : html`<${SignInFirst} />`
    }
  <//>`;
}

/** The reports the bridge generates for a record (src/modules/iso20022/bridge/reports.ts says when each applies). */
export function reportsFor(r: IsoRecord): string[] {
  const linked = (k: string) => r.kind === k || r.links.some((l) => l.kind === k);
  return [
    ...(['pacs008', 'pacs009', 'pacs004'].includes(r.kind) ? ['pacs002'] : []),
    ...(linked('pacs004') ? ['pacs004'] : []),
    ...((r.kind === 'camt056' && r.resolution !== undefined) || (r.kind !== 'camt056' && linked('camt056'))
      ? ['camt029']
      : []),
    ...(r.kind === 'sese023' ? ['sese024'] : []),
    ...(r.kind === 'sese023' && r.pacs002_code === 'ACSC' ? ['sese025'] : []),
  ];
}

function Report({ id, report }: { id: string; report: string }) {
  const path = `/v1/iso20022/messages/${enc(id)}/${report}`;
  const answer = useAuthed(path, (p) => getText(p, 'application/xml', sessionHeaders()));
  return html`<h3>${report}</h3><${Loaded} answer=${answer}>${(xml: string) =>
    html`<pre class="json xml" tabindex="0" role="region" aria-label=${`${report} XML`} data-report=${report}>${xml}</pre>`}<//>`;
}

function Record({ r }: { r: IsoRecord }) {
  return html`
    <${Facts}
      items=${[
        ['Message id', html`<span class="mono" data-testid="iso-id">${r.message_id}</span>`],
        ['Kind', `${r.kind} (${r.message_definition_id})`],
        [
          'Status',
          html`<strong data-testid="iso-status">${r.status}</strong> (${r.pacs002_code}${r.resolution === undefined ? '' : `, ${r.resolution}`})`,
        ],
        ['Reason', r.reason_code === undefined ? '–' : `${r.reason_code} ${r.reason_text ?? ''}`],
        [
          'Transaction',
          r.transaction_hash === undefined ? '–' : html`<${TxLink} hash=${r.transaction_hash} />`,
        ],
        ['Block', r.block_height === undefined ? '–' : html`<${BlockLink} height=${r.block_height} />`],
        ['Received', time(r.received_at_ms)],
        ['Updated', time(r.updated_at_ms)],
        [
          'Original message',
          r.original_message_id === undefined
            ? '–'
            : html`<a href=${href('iso', r.original_message_id)}>${r.original_message_id}</a>`,
        ],
      ]}
    />
    <${Table}
      caption=${`Transfers (${r.transfers.length})`}
      rows=${r.transfers}
      columns=${[
        { label: 'Leg', cell: (t: Transfer) => t.leg },
        { label: 'From', cell: (t: Transfer) => html`<${AccountLink} id=${t.source} />` },
        { label: 'To', cell: (t: Transfer) => html`<${AccountLink} id=${t.destination} />` },
        { label: 'Asset', cell: (t: Transfer) => html`<${AssetLink} id=${t.asset_definition} />` },
        { label: 'Amount', cell: (t: Transfer) => html`<span class="num">${t.amount}</span>` },
      ]}
    />
    <h2>Generated XML</h2>
    ${reportsFor(r).length === 0 ? html`<p class="muted">The bridge generates no report for a ${r.kind}.</p>` : null}
    ${reportsFor(r).map((k) => html`<${Report} key=${k} id=${r.message_id} report=${k} />`)}
    <h2>Record</h2>
    <${Json} value=${r} label="Canonical record" />`;
}

export function IsoMessage({ id }: { id: string }) {
  const signedIn = currentSession() !== undefined;
  const path = signedIn ? `/v1/iso20022/messages/${enc(id)}` : undefined;
  const answer = useAuthed(path, (p) => getJson<IsoRecord>(p, undefined, sessionHeaders()));
  return html`<${Page} title=${`ISO 20022 message ${id}`}>
    ${signedIn ? html`<${Loaded} answer=${answer}>${(r: IsoRecord) => html`<${Record} r=${r} />`}<//>` : html`<${SignInFirst} />`}
  <//>`;
}

const num = (v: string | null, d: number) => {
  const n = Number(v);
  return Number.isSafeInteger(n) && n > 0 ? n : d;
};

/** `#/iso?page=N&per=M` (the list) or `#/iso/<message id>` (one message). */
function IsoPage({ arg }: { arg: string }) {
  const route = useRoute();
  return arg === ''
    ? html`<${IsoMessages} page=${num(route.query.get('page'), 1)} per=${num(route.query.get('per'), ENTRIES)} />`
    : html`<${IsoMessage} id=${arg} />`;
}

const extension: DashboardExtension = {
  pages: [{ route: 'iso', title: 'ISO 20022', path: '/v1/iso20022/audit/messages', Page: IsoPage }],
};

export default extension;

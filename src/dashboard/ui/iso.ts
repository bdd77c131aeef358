// ISO 20022 bridge messages: the list (from the audit manifest, newest first, one row per message with
// its latest status) and one message (its canonical record and the XML reports the bridge generates for
// it). The bridge's read routes need a participant's signature or an operator session: the dashboard
// uses the operator session of the settings page (session.ts; docs/dashboard.md "ISO 20022 messages").

import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { type Answer, enc, getJson, getText } from './api.js';
import {
  AccountLink,
  AssetLink,
  BlockLink,
  Facts,
  href,
  Json,
  Loaded,
  Page,
  Table,
  TxLink,
  time,
} from './parts.js';
import { currentSession, sessionHeaders } from './session.js';

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

/** The newest `ENTRIES` audit entries: the total first, then the last page. */
async function newestEntries(): Promise<Answer<AuditPage>> {
  const h = sessionHeaders();
  const head = await getJson<AuditPage>('/v1/iso20022/audit/messages?limit=1', undefined, h);
  if (!head.ok) return head;
  const offset = Math.max(0, head.body.total - ENTRIES);
  return getJson<AuditPage>(`/v1/iso20022/audit/messages?limit=${ENTRIES}&offset=${offset}`, undefined, h);
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

export function IsoMessages() {
  const signedIn = currentSession() !== undefined;
  const answer = useAuthed(signedIn ? 'audit' : undefined, newestEntries);
  return html`<${Page} title="ISO 20022 messages">
    ${
      signedIn
        ? html`<${Loaded} answer=${answer}>${(p: AuditPage) => html`<${Table}
            caption=${`Messages in the newest ${Math.min(ENTRIES, p.total)} of ${p.total} audit entries, latest first`}
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
          />`}<//>`
        : html`<${SignInFirst} />`
    }
  <//>`;
}

/** The reports the bridge generates for a record (src/iso20022/bridge/reports.ts says when each applies). */
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

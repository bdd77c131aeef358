// The conference module's part of the dashboard (built with the `torana:dashboard` parts; found by
// convention by the dashboard module's build and type-checked with its ui/tsconfig.json): a page
// `#/conference` of calls and relays (docs/conference.md "Routes and CLI"), the public read routes
// `/v1/conference/calls` and `/v1/conference/relays` as tables (newest `LIMIT` of each, with the total).
// Authenticated calls are served only to signed requests, so the list holds the public ones.

import {
  AccountLink,
  type DashboardExtension,
  Loaded,
  Page,
  PathsContext,
  Table,
  time,
  useJson,
} from 'torana:dashboard';
import { html } from 'htm/preact';
import { useContext } from 'preact/hooks';

interface Usage {
  duration_ms: string | number;
  billed_gas: string;
  segments: number;
  last_segment?: number;
}
export interface CallItem {
  id: string;
  host: string;
  title: string;
  policy: string;
  privacy: string;
  status: string;
  scheduled_start_ms: string | number;
  max_participants: number;
  active_participants: number;
  relays: string[];
  usage: Usage;
  created_at_ms: string | number;
  ended_at_ms?: string | number;
}
export interface RelayItem {
  id: string;
  operator: string;
  endpoint: string;
  region: string;
  status: string;
  health?: {
    available: boolean;
    latency_ms: number;
    loss_permille: number;
    height: number;
    time_ms: string | number;
  };
}
interface List<T> {
  items: T[];
  total: number;
}

const LIMIT = 100;

/** A duration in ms as `1 h 02 min 05 s` (minutes and seconds only when under an hour). */
export function duration(ms: number): string {
  const s = Math.floor(ms / 1000);
  const [h, m, r] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  if (h > 0) return `${h} h ${pad(m)} min ${pad(r)} s`;
  return m > 0 ? `${m} min ${pad(r)} s` : `${r} s`;
}

const caption = (what: string, l: List<unknown>) =>
  `${what}: ${l.items.length} of ${l.total}${l.items.length < l.total ? ` (the first ${LIMIT})` : ''}`;

function Calls() {
  const answer = useJson<List<CallItem>>(`/v1/conference/calls?limit=${LIMIT}`);
  return html`<h2>Calls</h2><${Loaded} answer=${answer}>${(l: List<CallItem>) => html`<${Table}
    caption=${caption('Calls', l)}
    rows=${l.items}
    columns=${[
      { label: 'Call', cell: (c: CallItem) => html`<span class="mono" data-call=${c.id}>${c.id}</span>` },
      { label: 'Title', cell: (c: CallItem) => c.title || '–' },
      { label: 'Host', cell: (c: CallItem) => html`<${AccountLink} id=${c.host} />` },
      {
        label: 'Roster',
        cell: (c: CallItem) =>
          html`<span class="num" data-call-roster=${c.id}>${c.active_participants} / ${c.max_participants}</span>
            <span class="muted">${c.privacy === 'transparent' ? '' : ` (${c.privacy})`}</span>`,
      },
      {
        label: 'Status',
        cell: (c: CallItem) =>
          html`<span data-call-status=${c.id}>${c.status}</span> <span class="muted">${c.policy}</span>`,
      },
      { label: 'Start', cell: (c: CallItem) => time(Number(c.scheduled_start_ms)) },
      {
        label: 'Usage',
        cell: (c: CallItem) =>
          `${duration(Number(c.usage.duration_ms))}, ${c.usage.segments} segment${c.usage.segments === 1 ? '' : 's'}, ${c.usage.billed_gas} gas`,
      },
      { label: 'Relays', cell: (c: CallItem) => (c.relays.length === 0 ? '–' : c.relays.join(' → ')) },
    ]}
  />`}<//>`;
}

function Relays() {
  const answer = useJson<List<RelayItem>>(`/v1/conference/relays?limit=${LIMIT}`);
  const health = (r: RelayItem, f: (h: NonNullable<RelayItem['health']>) => string) =>
    r.health === undefined ? '–' : f(r.health);
  return html`<h2>Relays</h2><${Loaded} answer=${answer}>${(l: List<RelayItem>) => html`<${Table}
    caption=${caption('Relays', l)}
    rows=${l.items}
    columns=${[
      { label: 'Relay', cell: (r: RelayItem) => html`<span class="mono" data-relay=${r.id}>${r.id}</span>` },
      { label: 'Region', cell: (r: RelayItem) => r.region },
      { label: 'Endpoint', cell: (r: RelayItem) => html`<span class="mono">${r.endpoint}</span>` },
      { label: 'Operator', cell: (r: RelayItem) => html`<${AccountLink} id=${r.operator} />` },
      { label: 'Health', cell: (r: RelayItem) => html`<span data-relay-status=${r.id}>${r.status}</span>` },
      { label: 'Latency', cell: (r: RelayItem) => health(r, (h) => `${h.latency_ms} ms`) },
      { label: 'Loss', cell: (r: RelayItem) => health(r, (h) => `${(h.loss_permille / 10).toFixed(1)} %`) },
      {
        label: 'Reported',
        cell: (r: RelayItem) => health(r, (h) => `${time(Number(h.time_ms))} (block ${h.height})`),
      },
    ]}
  />`}<//>`;
}

/** The conference page: calls, and relays when the node serves relay telemetry. */
function Conference() {
  const paths = useContext(PathsContext);
  return html`<${Page} title="Conference">
    <${Calls} />
    ${paths.has('/v1/conference/relays') ? html`<${Relays} />` : html`<h2>Relays</h2><p class="muted">This node does not serve relay telemetry.</p>`}
  <//>`;
}

const conferenceDashboard: DashboardExtension = {
  pages: [{ route: 'conference', title: 'Conference', path: '/v1/conference/calls', Page: Conference }],
};

export default conferenceDashboard;

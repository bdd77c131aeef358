// The telemetry module's panel of the dashboard's consensus page (a DashboardExtension, built with the
// `torana:dashboard` parts): this node's peers as the p2p layer sees them and the newest block's
// propagation, polled with the page; shown when the node serves `/v1/telemetry/peers-info`. Node-local:
// another node answers for itself.

import {
  BlockLink,
  type DashboardExtension,
  Facts,
  Loaded,
  short,
  Table,
  time,
  usePoll,
} from 'torana:dashboard';
import { html } from 'htm/preact';

interface PeerInfo {
  peer_id: string;
  self: boolean;
  url?: string;
  address?: string;
  role: string;
  connected: boolean;
  last_seen_ms?: number;
}
interface Propagation {
  block: number;
  first_seen_at_ms?: number;
  last_seen_at_ms?: number;
  spread_ms?: number;
  peers_reported: number;
}

export function Telemetry({ everyMs }: { everyMs: number }) {
  const peers = usePoll<{ items: PeerInfo[]; total: number }>('/v1/telemetry/peers-info', everyMs);
  const prop = usePoll<Propagation>('/v1/telemetry/propagation', everyMs);
  return html`
    <${Loaded} answer=${peers}>
      ${(l: { items: PeerInfo[]; total: number }) => html`<${Table}
        caption=${`Peers (${l.total}, this node first)`}
        rows=${l.items}
        columns=${[
          {
            label: 'Peer',
            cell: (p: PeerInfo) =>
              html`<span class="mono" title=${p.peer_id}>${short(p.peer_id)}</span>${p.self ? ' (this node)' : ''}`,
          },
          { label: 'Role', cell: (p: PeerInfo) => p.role },
          {
            label: 'Connected',
            cell: (p: PeerInfo) =>
              html`<span data-connected=${String(p.connected)}>${p.connected ? 'yes' : 'no'}</span>`,
          },
          {
            label: 'Address',
            cell: (p: PeerInfo) => html`<span class="mono">${p.url ?? p.address ?? '–'}</span>`,
          },
          {
            label: 'Last seen',
            cell: (p: PeerInfo) => (p.last_seen_ms === undefined ? '–' : time(p.last_seen_ms)),
          },
        ]}
      />`}
    <//>
    <${Loaded} answer=${prop}>
      ${(p: Propagation) =>
        html`<h2>Propagation</h2><${Facts} items=${[
          ['Newest block', p.block === 0 ? '–' : html`<${BlockLink} height=${p.block} />`],
          ['Created', p.first_seen_at_ms === undefined ? '–' : time(p.first_seen_at_ms)],
          ['Committed here', p.last_seen_at_ms === undefined ? '–' : time(p.last_seen_at_ms)],
          ['Spread', p.spread_ms === undefined ? '–' : `${p.spread_ms} ms`],
          ['Peers reporting', p.peers_reported],
        ]} />`}
    <//>`;
}

const extension: DashboardExtension = {
  consensusPanels: [{ path: '/v1/telemetry/peers-info', Panel: Telemetry }],
};

export default extension;

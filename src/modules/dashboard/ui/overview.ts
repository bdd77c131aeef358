// The overview: height, throughput, latency and queue depth charts (from /status, polled each second),
// peers, consensus round, and the live feed of blocks and transactions (SSE).

import { html } from 'htm/preact';
import { useRef, useState } from 'preact/hooks';
import type { Answer } from './api.js';
import { LineChart, type Series } from './chart.js';
import { useFeed, usePoll } from './hooks.js';
import { BlockLink, Facts, Loaded, Page, TxLink, time } from './parts.js';

export interface Status {
  peers: number;
  blocks: number;
  commit_time_ms: number;
  txs_approved: number;
  txs_rejected: number;
  queue_size: number;
  queue_capacity?: number;
  view_changes: number;
  uptime: { secs: number };
  consensus?: { mode: string; height: number; view: number; leader_index: number; validators: number };
}

const SAMPLES_MAX = 120;
const POLL_MS = 1000;

function append(s: Series, t: number, v: number): Series {
  return { t: [...s.t, t].slice(-SAMPLES_MAX), v: [...s.v, v].slice(-SAMPLES_MAX) };
}

function useSeries() {
  const [tput, setTput] = useState<Series>({ t: [], v: [] });
  const [lat, setLat] = useState<Series>({ t: [], v: [] });
  const [queue, setQueue] = useState<Series>({ t: [], v: [] });
  const prev = useRef<{ at: number; txs: number } | undefined>(undefined);
  const onAnswer = (a: Answer<Status>) => {
    if (!a.ok) return;
    const at = performance.now();
    const txs = a.body.txs_approved + a.body.txs_rejected;
    const t = Date.now() / 1000;
    const p = prev.current;
    if (p !== undefined && at > p.at) setTput((s) => append(s, t, ((txs - p.txs) * 1000) / (at - p.at)));
    prev.current = { at, txs };
    setLat((s) => append(s, t, a.body.commit_time_ms));
    setQueue((s) => append(s, t, a.body.queue_size));
  };
  return { tput, lat, queue, onAnswer };
}

function LiveList() {
  const feed = useFeed();
  return html`<section aria-labelledby="feed-title">
    <h2 id="feed-title">Live feed <span class=${`badge ${feed.state}`} role="status">${feed.state}</span></h2>
    <ol class="feed" aria-live="polite" aria-label="Committed blocks and transactions, newest first">
      ${feed.items.length === 0 ? html`<li>Waiting for the next block…</li>` : null}
      ${feed.items.map(
        (i) => html`<li key=${i.id} data-kind=${i.kind}>
          ${
            i.kind === 'block'
              ? html`Block <${BlockLink} height=${i.height ?? 0} /> committed`
              : html`Transaction <${TxLink} hash=${i.hash} /> ${i.status.toLowerCase()}${
                  i.height === undefined ? '' : html` in <${BlockLink} height=${i.height} />`
                }`
          }
          <time class="muted">${time(i.atMs)}</time>
        </li>`,
      )}
    </ol>
  </section>`;
}

export function Overview() {
  const { tput, lat, queue, onAnswer } = useSeries();
  const status = usePoll<Status>('/status', POLL_MS, onAnswer);
  return html`<${Page} title="Overview">
    <${Loaded} answer=${status}>
      ${(s: Status) => html`<${Facts}
        items=${[
          ['Height', html`<span data-testid="height">${s.blocks}</span>`],
          ['Peers', s.peers],
          ['Queue depth', `${s.queue_size}${s.queue_capacity === undefined ? '' : ` / ${s.queue_capacity}`}`],
          ['Transactions committed', s.txs_approved],
          ['Transactions rejected', s.txs_rejected],
          ['View changes', s.view_changes],
          [
            'Consensus',
            s.consensus
              ? `${s.consensus.mode}, view ${s.consensus.view}, leader ${s.consensus.leader_index}`
              : '–',
          ],
          ['Uptime', `${s.uptime.secs} s`],
        ]}
      />`}
    <//>
    <div class="charts">
      <${LineChart} title="Throughput" unit="tx/s" data=${tput} />
      <${LineChart} title="Commit latency" unit="ms" data=${lat} />
      <${LineChart} title="Queue depth" unit="tx" data=${queue} />
    </div>
    <${LiveList} />
  <//>`;
}

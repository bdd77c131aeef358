// One transaction: status, block, authority, its instructions, and the data events the live feed saw
// for it (the node has no route for a past transaction's events yet).

import { html } from 'htm/preact';
import { enc } from './api.js';
import { useFeed, useJson } from './hooks.js';
import { AccountLink, BlockLink, Facts, Json, Loaded, Page, time } from './parts.js';

interface TxDetail {
  hash: string;
  block_height: number;
  block_hash: string;
  authority: string;
  creation_time_ms: number;
  instructions: { kind: string }[];
  result: { kind: string; reason?: unknown };
  metadata: Record<string, unknown>;
}

export function Transaction({ hash }: { hash: string }) {
  const answer = useJson<TxDetail>(`/v1/explorer/transactions/${enc(hash)}`);
  const feed = useFeed();
  const events = feed.txEvents.get(hash) ?? [];
  return html`<${Page} title="Transaction">
    <${Loaded} answer=${answer}>
      ${(t: TxDetail) => html`
        <${Facts}
          items=${[
            ['Hash', html`<span class="mono" data-testid="tx-hash">${t.hash}</span>`],
            ['Status', html`<strong data-testid="tx-status">${t.result.kind}</strong>`],
            ['Block', html`<${BlockLink} height=${t.block_height} />`],
            ['Authority', html`<${AccountLink} id=${t.authority} />`],
            ['Created', time(t.creation_time_ms)],
          ]}
        />
        ${t.result.reason === undefined ? null : html`<h2>Rejection</h2><${Json} value=${t.result} label="Rejection reason" />`}
        <h2>Instructions (${t.instructions.length})</h2>
        <ol class="instructions">
          ${t.instructions.map(
            (i, n) => html`<li data-kind=${i.kind}>
              <h3>${i.kind}</h3>
              <${Json} value=${i} label=${`Instruction ${n + 1}, ${i.kind}`} />
            </li>`,
          )}
        </ol>
        <h2>Events</h2>
        ${
          events.length === 0
            ? html`<p class="muted">No data events seen live for this transaction since this page opened.</p>`
            : html`<${Json} value=${events} label="Data events seen live" />`
        }`}
    <//>
  <//>`;
}

// One transaction: status, block, authority, its instructions, and its data events: those the live feed
// saw, else replayed from the node's event stream (past-events.ts).

import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { enc } from './api.js';
import { useFeed, useJson } from './hooks.js';
import type { DataEvent } from './live.js';
import { AccountLink, BlockLink, Facts, Json, Loaded, Page, time } from './parts.js';
import { type PastEvents, pastEvents } from './past-events.js';
import { isRejection, readableRejection } from './rejections.js';

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

/**
 * Why a transaction was rejected: its code and its message with amounts at their definition's scale
 * (rejections.ts); a reason of another shape as the node gave it.
 */
export function RejectionFacts({ reason }: { reason: unknown }) {
  if (!isRejection(reason)) return html`<${Json} value=${reason} label="Rejection reason" />`;
  return html`<${Facts}
    items=${[
      ['Code', html`<code data-testid="tx-rejection-code">${reason.code}</code>`],
      [
        'Message',
        html`<span data-testid="tx-rejection">${readableRejection(reason.code, reason.message)}</span>`,
      ],
      ...(reason.instruction_index === undefined ? [] : [['Instruction index', reason.instruction_index]]),
    ]}
  />`;
}

/** The events the live feed saw for `hash`, else those the node replays for its block. */
function Events({ hash, height }: { hash: string; height: number }) {
  const seen = useFeed().txEvents.get(hash);
  const [past, setPast] = useState<PastEvents | undefined>(undefined);
  useEffect(() => {
    if (seen !== undefined) return;
    let live = true;
    pastEvents(hash, height).then((p) => {
      if (live) setPast(p);
    });
    return () => {
      live = false;
    };
  }, [hash, height, seen === undefined]);
  const events: DataEvent[] | undefined = seen ?? (past?.ok ? past.events : undefined);
  if (events === undefined)
    return past === undefined
      ? html`<p role="status">Loading events…</p>`
      : html`<p class="muted">Events unavailable: ${past.ok ? '' : past.reason}.</p>`;
  if (events.length === 0)
    return html`<p class="muted" data-testid="tx-events">This transaction emitted no data events.</p>`;
  return html`<ol class="events" data-testid="tx-events">
    ${events.map((e, n) => html`<li data-event=${Object.keys(e.data)[0] ?? ''}><${Json} value=${e.data} label=${`Event ${n + 1}`} /></li>`)}
  </ol>`;
}

export function Transaction({ hash }: { hash: string }) {
  const answer = useJson<TxDetail>(`/v1/explorer/transactions/${enc(hash)}`);
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
        ${t.result.reason === undefined ? null : html`<h2>Rejection</h2><${RejectionFacts} reason=${t.result.reason} />`}
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
        <${Events} hash=${t.hash} height=${t.block_height} />`}
    <//>
  <//>`;
}

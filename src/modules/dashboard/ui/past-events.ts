// A past transaction's data events, read back from the node's event stream: committed event ids are
// `height × 2^24 + position` and a block's last event is its `Applied` block event (docs/security.md
// "Streams"), so a stream resumed after the previous block's last id and filtered to this transaction's
// data events plus the block's `Applied` event replays exactly those events, then the `Applied` event ends
// it. A node that no longer holds that history answers `event: gone`.

import { NODE_URL } from './api.js';
import type { DataEvent } from './live.js';

const ID_SPAN = 2 ** 24;
const APPLIED_POSITION = 2 ** 23 - 1;
const TIMEOUT_MS = 10_000;

export type PastEvents = { ok: true; events: DataEvent[] } | { ok: false; reason: string };

/** The id after which block `height`'s events start (the previous block's Applied event; 0 at genesis). */
export const resumeIdBefore = (height: number): number =>
  height <= 1 ? 0 : (height - 1) * ID_SPAN + APPLIED_POSITION;

export function streamUrl(hash: string, height: number): string {
  const filter = {
    or: [
      { and: [{ eq: ['kind', 'data'] }, { eq: ['tx_hash', hash] }] },
      {
        and: [
          { eq: ['kind', 'block'] },
          { eq: ['block_status', 'Applied'] },
          { eq: ['block_height', height] },
        ],
      },
    ],
  };
  const q = `filter=${encodeURIComponent(JSON.stringify(filter))}&last_event_id=${resumeIdBefore(height)}`;
  return `${NODE_URL}/v1/events/sse?${q}`;
}

/** Replays the data events of transaction `hash` committed at `height`. */
export function pastEvents(hash: string, height: number): Promise<PastEvents> {
  return new Promise((resolve) => {
    const source = new EventSource(streamUrl(hash, height));
    const events: DataEvent[] = [];
    const end = (r: PastEvents) => {
      clearTimeout(timer);
      source.close();
      resolve(r);
    };
    const timer = setTimeout(
      () => end({ ok: false, reason: 'the node did not replay the block in time' }),
      TIMEOUT_MS,
    );
    source.addEventListener('data', (e) => {
      const d = JSON.parse((e as MessageEvent<string>).data) as DataEvent;
      events.push({
        ...(d.block_height === undefined ? {} : { block_height: d.block_height }),
        data: d.data,
      });
    });
    source.addEventListener('block', () => end({ ok: true, events }));
    source.addEventListener('gone', () =>
      end({ ok: false, reason: 'the node no longer holds these events' }),
    );
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) end({ ok: false, reason: 'the event stream failed' });
    };
  });
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodePeerMessage } from '../consensus/bft/messages.js';
import type { MessageHandler } from '../p2p/types.js';
import { encodeReport } from '../telemetry/report-codec.js';
import { routeToEngine } from './bft.js';

describe('routeToEngine', () => {
  it('hands consensus messages to the engine and keeps telemetry reports from it', () => {
    const handlers: MessageHandler[] = [];
    const seen: string[] = [];
    routeToEngine(
      { onMessage: (fn) => handlers.push(fn) },
      { onMessage: (from, bytes) => seen.push(`${from}:${bytes.length}`) },
    );
    const tip = encodePeerMessage({ kind: 'Tip', height: 7 });
    const report = encodeReport({
      sentAtMs: 1,
      version: 'v',
      role: 'validator',
      consensus: 'bft',
      height: 7,
      queueDepth: 0,
      connectedPeers: 1,
      blocks: [],
    })!;
    for (const h of handlers) {
      void h('a', tip);
      void h('b', report);
    }
    assert.deepEqual(seen, [`a:${tip.length}`]);
  });
});

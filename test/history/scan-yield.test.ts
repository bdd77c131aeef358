// A long history scan (history.scan_entries_max is 1,000,000 by default) yields to the event loop
// (history/page.ts SLICE_MS): a /status request sent while it runs is answered long before the scan
// ends, through the served node's real sockets. The account's index is made long by handing the history
// port a synthetic index of 900,000 entries (none passes the filter, so no block is read for the page).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HistoryEntry } from '../../src/pipeline/history-entries.js';
import { kindsOf } from '../../src/pipeline/tx-summary.js';
import { type ServedTestNode, startServedNode } from '../helpers/served.js';
import { timingBound } from '../helpers/timing-bound.js';

const ENTRIES = 900_000;
/** The longest /status may wait while the scan runs (a loaded 2-core machine; a turn is ≤ 2 ms of scan). */
const STATUS_BOUND_MS = 1000;

function* longIndex(): Iterable<HistoryEntry> {
  const kinds = kindsOf([{ kind: 'TransferAsset' } as never]);
  const hash = new Uint8Array(32);
  for (let n = 0; n < ENTRIES; n++)
    yield { height: 1 + (n >> 4), index: n & 15, hash, summary: { ok: true, blockTimeMs: 1000, kinds } };
}

describe('history scan and the event loop', () => {
  let t: ServedTestNode;
  before(async () => {
    t = await startServedNode();
    const ledger = t.node.ledger;
    const real = ledger.indexEntries.bind(ledger);
    ledger.indexEntries = async (tag, id) => (id === t.admin.id ? longIndex() : real(tag, id));
  });
  after(async () => {
    await t.stopAll();
  });

  it('answers /status while a long scan of an account history runs', async () => {
    const t0 = performance.now();
    let scanEnded = 0;
    const scan = fetch(
      `${t.url}/v1/accounts/${encodeURIComponent(t.admin.id)}/transactions?status=rejected`,
    ).then(async (r) => {
      scanEnded = performance.now();
      return { status: r.status, body: (await r.json()) as { total: number; items: unknown[] } };
    });
    // Let the scan start before asking.
    await new Promise((r) => setTimeout(r, 30));
    const s0 = performance.now();
    const status = await fetch(`${t.url}/status`);
    const statusMs = performance.now() - s0;
    const statusEnded = performance.now();
    assert.equal(status.status, 200);
    const page = await scan;
    assert.equal(page.status, 200);
    assert.deepEqual([page.body.total, page.body.items.length], [0, 0]);
    const scanMs = scanEnded - t0;
    assert.ok(
      statusEnded < scanEnded,
      `/status (${statusMs.toFixed(0)} ms) waited for the scan (${scanMs.toFixed(0)} ms)`,
    );
    timingBound({
      what: `/status while a ${scanMs.toFixed(0)} ms scan ran`,
      value: statusMs,
      max: STATUS_BOUND_MS,
    });
  });
});

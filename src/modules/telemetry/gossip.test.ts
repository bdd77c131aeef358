import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fakeHash, fakeTelemetryPort } from '../../../test/helpers/telemetry-port.js';
import { TelemetryGossip } from './gossip.js';
import { PeerReports } from './peer-reports.js';
import { decodeReport, encodeReport, REPORT_BLOCKS_MAX } from './report-codec.js';

const peer = { peerId: 'p1', address: '127.0.0.1:1', role: 'validator', connected: true, lastSeenMs: 1 };
const opts = { reportsMax: 4, staleMs: 60_000, minGapMs: 0 };

describe('TelemetryGossip', () => {
  it('sends this node’s report: URL, height, queue, version and its last commits, oldest first', () => {
    const f = fakeTelemetryPort([], [peer]);
    const g = new TelemetryGossip(f.port, new PeerReports(opts, () => true), 60_000);
    g.start();
    for (let i = 1; i <= REPORT_BLOCKS_MAX + 2; i++) f.commit(i * 100, i * 100 + 7);
    g.send();
    g.stop();
    assert.equal(f.sent.length, 1);
    const r = decodeReport(f.sent[0]!);
    assert.ok(r.ok);
    const { blocks, ...rest } = r.report;
    assert.deepEqual(rest, {
      sentAtMs: (REPORT_BLOCKS_MAX + 2) * 100 + 7,
      version: 'torana/test',
      gatewayUrl: 'http://x',
      role: 'validator',
      consensus: 'bft',
      height: REPORT_BLOCKS_MAX + 2,
      queueDepth: 3,
      connectedPeers: 1,
    });
    assert.equal(blocks.length, REPORT_BLOCKS_MAX);
    assert.deepEqual(blocks[0], { height: 3, hash: fakeHash(3), seenAtMs: 307 });
    assert.equal(blocks.at(-1)!.height, REPORT_BLOCKS_MAX + 2);
    assert.equal(f.listeners.size, 0, 'stop unsubscribes');
    assert.equal(f.inbound.size, 0);
  });

  it('files what peers send in the store, and sends on its interval', (t) => {
    // The interval runs on node:test's mock timers: a loaded machine cannot fire it more or less often.
    t.mock.timers.enable({ apis: ['setInterval'] });
    const f = fakeTelemetryPort([], [peer]);
    const store = new PeerReports(opts, (id) => id === 'p1');
    const g = new TelemetryGossip(f.port, store, 10);
    g.start();
    const other = new TelemetryGossip(fakeTelemetryPort([5]).port, store, 10).report();
    f.deliver('p1', encodeReport(other)!);
    f.deliver('p1', new Uint8Array([0x54, 0x52, 0x4e, 0x54, 1, 0xff]));
    assert.equal(store.reports('p1', 10_000)[0]?.report.version, 'torana/test');
    assert.deepEqual(g.counters.received, { accepted: 1, malformed: 1 });
    assert.equal(f.sent.length, 0, 'nothing before the first interval');
    t.mock.timers.tick(9);
    assert.equal(f.sent.length, 0);
    t.mock.timers.tick(1);
    assert.equal(f.sent.length, 1);
    t.mock.timers.tick(20);
    assert.equal(f.sent.length, 3);
    assert.equal(g.counters.sent, 3);
    g.stop();
    t.mock.timers.tick(100);
    assert.equal(f.sent.length, 3, 'stop clears the interval');
  });

  it('an interval of 0 neither sends nor takes reports', () => {
    const f = fakeTelemetryPort([], [peer]);
    const g = new TelemetryGossip(f.port, new PeerReports(opts, () => true), 0);
    g.start();
    assert.equal(f.inbound.size, 0);
    assert.equal(f.listeners.size, 0);
  });
});

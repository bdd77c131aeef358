import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PeerReports } from './peer-reports.js';
import { encodeReport, REPORT_BYTES_MAX, REPORT_MAGIC, type TelemetryReport } from './report-codec.js';

const hash = (h: number) => h.toString(16).padStart(64, '0');

function report(height: number): TelemetryReport {
  return {
    sentAtMs: height,
    version: 'torana/test',
    role: 'validator',
    consensus: 'bft',
    height,
    queueDepth: 0,
    connectedPeers: 1,
    blocks: [{ height, hash: hash(height), seenAtMs: 1000 + height }],
  };
}
const bytes = (h: number) => encodeReport(report(h))!;

describe('PeerReports', () => {
  it('keeps the newest reports_max reports of configured peers only, newest first', () => {
    const s = new PeerReports({ reportsMax: 2, staleMs: 10_000, minGapMs: 0 }, (id) => id === 'a');
    assert.equal(s.receive('stranger', bytes(1), 0), 'unknown_peer');
    assert.deepEqual(s.reports('stranger', 0), []);
    for (let h = 1; h <= 4; h++) assert.equal(s.receive('a', bytes(h), h * 10), 'accepted');
    assert.deepEqual(
      s.reports('a', 40).map((r) => [r.report.height, r.receivedAtMs]),
      [
        [4, 40],
        [3, 30],
      ],
    );
  });

  it('drops stale reports: not listed, not counted as sightings', () => {
    const s = new PeerReports({ reportsMax: 4, staleMs: 1000, minGapMs: 0 }, () => true);
    s.receive('a', bytes(1), 0);
    s.receive('a', bytes(2), 600);
    assert.deepEqual(s.sightings(1, hash(1), 900), [{ peerId: 'a', seenAtMs: 1001, reportAgeMs: 900 }]);
    assert.equal(s.reports('a', 1500).length, 1);
    assert.deepEqual(s.sightings(1, hash(1), 1500), []);
    assert.deepEqual(s.sightings(2, hash(2), 1500), [{ peerId: 'a', seenAtMs: 1002, reportAgeMs: 900 }]);
    assert.deepEqual(s.reports('a', 1601), []);
  });

  it('refuses reports closer together than min_gap_ms, counting them', () => {
    const s = new PeerReports({ reportsMax: 4, staleMs: 10_000, minGapMs: 500 }, () => true);
    assert.equal(s.receive('a', bytes(1), 1000), 'accepted');
    assert.equal(s.receive('a', bytes(2), 1499), 'rate_limited');
    assert.equal(s.receive('b', bytes(2), 1499), 'accepted', 'the limit is per peer');
    assert.equal(s.receive('a', bytes(3), 1500), 'accepted');
    assert.equal(s.refused('a'), 1);
    assert.equal(s.refused('b'), 0);
  });

  it('counts malformed, oversize and other-version messages without throwing or keeping them', () => {
    const s = new PeerReports({ reportsMax: 4, staleMs: 10_000, minGapMs: 0 }, () => true);
    const good = bytes(1);
    const v9 = good.slice();
    v9[4] = 9;
    const big = new Uint8Array(REPORT_BYTES_MAX + 10);
    big.set(REPORT_MAGIC, 0);
    big[4] = 1;
    assert.equal(s.receive('a', good.subarray(0, good.length - 3), 0), 'malformed');
    assert.equal(s.receive('a', v9, 0), 'unsupported_version');
    assert.equal(s.receive('a', big, 0), 'too_large');
    assert.equal(s.receive('a', new Uint8Array([1, 2, 3]), 0), 'malformed');
    assert.equal(s.refused('a'), 4);
    assert.deepEqual(s.reports('a', 0), []);
    assert.equal(s.receive('a', good, 0), 'accepted', 'refusals do not count toward the rate limit');
  });
});

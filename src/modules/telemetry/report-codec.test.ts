import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededBytes } from '../../../test/helpers/seeded-bytes.js';
import {
  decodeReport,
  encodeReport,
  isReportMessage,
  REPORT_BLOCKS_MAX,
  REPORT_BYTES_MAX,
  REPORT_MAGIC,
  type TelemetryReport,
} from './report-codec.js';

const hash = (n: number) => n.toString(16).padStart(2, '0').repeat(32);

function report(blocks = 3): TelemetryReport {
  return {
    sentAtMs: 1_764_000_000_000,
    version: 'torana/0.1.0',
    gatewayUrl: 'http://127.0.0.1:8080',
    role: 'validator',
    consensus: 'bft',
    height: 42,
    queueDepth: 7,
    connectedPeers: 3,
    blocks: Array.from({ length: blocks }, (_, i) => ({
      height: 42 - blocks + 1 + i,
      hash: hash(i),
      seenAtMs: 1_764_000_000_000 - (blocks - i) * 100,
    })),
  };
}

describe('telemetry report codec', () => {
  it('round-trips a report, with and without a gateway URL', () => {
    const r = report();
    const bytes = encodeReport(r)!;
    assert.ok(isReportMessage(bytes));
    assert.deepEqual(decodeReport(bytes), { ok: true, report: r });
    const { gatewayUrl: _, ...bare } = r;
    assert.deepEqual(decodeReport(encodeReport(bare)!), { ok: true, report: bare });
  });

  it('a report at every field limit still fits the message cap', () => {
    const r: TelemetryReport = {
      ...report(REPORT_BLOCKS_MAX),
      sentAtMs: Number.MAX_SAFE_INTEGER,
      version: 'v'.repeat(64),
      gatewayUrl: 'u'.repeat(512),
      role: 'r'.repeat(16),
      consensus: 'c'.repeat(16),
      height: Number.MAX_SAFE_INTEGER,
      queueDepth: Number.MAX_SAFE_INTEGER,
      connectedPeers: Number.MAX_SAFE_INTEGER,
    };
    const bytes = encodeReport(r)!;
    assert.ok(bytes.length < REPORT_BYTES_MAX / 2, `${bytes.length} bytes`);
    assert.equal(decodeReport(bytes).ok, true);
  });

  it('refuses more blocks or a longer field than the limits, without throwing', () => {
    const many = encodeReport(report(REPORT_BLOCKS_MAX + 1))!;
    const r = decodeReport(many);
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.error, 'malformed');
    const long = decodeReport(encodeReport({ ...report(), version: 'v'.repeat(65) })!);
    assert.equal(!long.ok && long.error, 'malformed');
  });

  it('refuses an oversize message from its length, before decoding', () => {
    const big = new Uint8Array(REPORT_BYTES_MAX + 1);
    big.set(REPORT_MAGIC, 0);
    big[4] = 1;
    assert.deepEqual(decodeReport(big), {
      ok: false,
      error: 'too_large',
      detail: `${REPORT_BYTES_MAX + 1} > ${REPORT_BYTES_MAX} bytes`,
    });
    assert.equal(encodeReport({ ...report(), version: 'v'.repeat(REPORT_BYTES_MAX) }), undefined);
  });

  it('refuses another version, another magic, and every truncation or extension', () => {
    const bytes = encodeReport(report())!;
    const v2 = bytes.slice();
    v2[4] = 2;
    assert.deepEqual(decodeReport(v2), { ok: false, error: 'unsupported_version', detail: 'version 2' });
    assert.deepEqual(decodeReport(bytes.subarray(0, 4)), {
      ok: false,
      error: 'unsupported_version',
      detail: 'version missing',
    });
    for (let first = 0; first < 0x54; first++)
      assert.equal(decodeReport(new Uint8Array([first, 0x52, 0x4e, 0x54, 1])).ok, false);
    assert.equal(decodeReport(new Uint8Array(0)).ok, false);
    for (let n = 5; n < bytes.length; n++) {
      const r = decodeReport(bytes.subarray(0, n));
      assert.equal(!r.ok && r.error, 'malformed', `truncated to ${n}`);
    }
    const longer = new Uint8Array(bytes.length + 1);
    longer.set(bytes);
    const r = decodeReport(longer);
    assert.equal(!r.ok && r.error, 'malformed');
  });

  it('random bytes behind the header never throw and never decode to an out-of-limit report', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const body = seededBytes(seed, 1 + (seed % 300));
      const msg = new Uint8Array(5 + body.length);
      msg.set(REPORT_MAGIC, 0);
      msg[4] = 1;
      msg.set(body, 5);
      const r = decodeReport(msg);
      if (r.ok) assert.ok(r.report.blocks.length <= REPORT_BLOCKS_MAX, `seed ${seed}`);
      else assert.ok(['malformed', 'too_large'].includes(r.error), `seed ${seed}: ${r.error}`);
    }
  });
});

// Seeded damage to evidence files (docs/design/testing.md "Durability discipline"): a flipped byte in any
// record but the last, or in the header, is detected every time and never cut off; damage confined to
// the last record, a truncation or appended garbage cost exactly the records they touch. Every failing
// case prints its seed; keep it here as a regression if one ever fails.

// Declares the ledger modules' wire pieces before any codec use (docs/design/modules.md).
import '../modules/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seededRandom } from '../../test/helpers/bad-values.js';
import { StorageCorruptionError } from '../storage/errors.js';
import {
  EVIDENCE_FILE_HEADER_BYTES,
  type EvidenceEntry,
  encodeEvidenceFileHeader,
  encodeEvidenceRecord,
  scanEvidenceFile,
} from './evidence-file.js';

const RUNS = 300;
const PATH = 'evidence.log';

function entry(n: number): EvidenceEntry {
  return {
    id: n.toString(16).padStart(64, '0'),
    kind: 'InvalidProposal',
    finding: `reason_${n}`,
    recordedAtMs: n * 1000,
    recordedAtHeight: n,
    evidence: {
      kind: 'InvalidProposal',
      height: n,
      view: n,
      validatorSetHash: new Uint8Array(32).fill(n),
      proposerIndex: n,
      blockHash: new Uint8Array(32).fill(255 - n),
      reason: `reason_${n}`.repeat(n),
    },
  };
}

const records = [1, 2, 3, 4, 5].map((n) => encodeEvidenceRecord(entry(n)));
const file = Buffer.concat([encodeEvidenceFileHeader(7), ...records]);
/** Offset at which record i starts; ends[i] where it ends. */
const ends = records.map(
  (_, i) => EVIDENCE_FILE_HEADER_BYTES + records.slice(0, i + 1).reduce((n, r) => n + r.length, 0),
);
const starts = ends.map((end, i) => end - records[i]!.length);

/** Records scanned intact, or 'corrupt'; any other error fails the test. */
function outcome(buf: Uint8Array): { kept: number; tornAt: number | undefined } | 'corrupt' {
  try {
    const { contents, tornAt } = scanEvidenceFile(PATH, buf);
    return { kept: contents.records.length, tornAt };
  } catch (e) {
    if (e instanceof StorageCorruptionError) return 'corrupt';
    throw e;
  }
}

describe('evidence file damage (seeded)', () => {
  it('reads the undamaged file whole', () => {
    assert.deepEqual(outcome(file), { kept: 5, tornAt: undefined });
    assert.equal(scanEvidenceFile(PATH, file).contents.droppedBefore, 7);
  });

  it('detects a flipped byte before the last record every time, and cuts a damaged last record', () => {
    for (let seed = 1; seed <= RUNS; seed++) {
      const random = seededRandom(seed);
      const at = Math.floor(random() * file.length);
      const bad = Buffer.from(file);
      bad[at] = (bad[at] ?? 0) ^ (1 + Math.floor(random() * 255));
      const got = outcome(bad);
      const last = starts[4]!;
      const want = at >= last ? { kept: 4, tornAt: last } : 'corrupt';
      assert.deepEqual(got, want, `seed ${seed}: flip at byte ${at}`);
    }
  });

  it('keeps exactly the whole records before a truncation or appended garbage', () => {
    for (let seed = 1; seed <= RUNS; seed++) {
      const random = seededRandom(seed);
      const cut =
        EVIDENCE_FILE_HEADER_BYTES + Math.floor(random() * (file.length - EVIDENCE_FILE_HEADER_BYTES));
      const kept = ends.filter((e) => e <= cut).length;
      const lastEnd = kept === 0 ? EVIDENCE_FILE_HEADER_BYTES : ends[kept - 1]!;
      assert.deepEqual(
        outcome(file.subarray(0, cut)),
        { kept, tornAt: cut === lastEnd ? undefined : lastEnd },
        `seed ${seed}: cut at ${cut}`,
      );
      const garbage = Uint8Array.from({ length: 1 + Math.floor(random() * 64) }, () =>
        Math.floor(random() * 256),
      );
      assert.deepEqual(
        outcome(Buffer.concat([file, garbage])),
        { kept: 5, tornAt: file.length },
        `seed ${seed}`,
      );
    }
    assert.equal(outcome(file.subarray(0, EVIDENCE_FILE_HEADER_BYTES - 1)), 'corrupt');
  });
});

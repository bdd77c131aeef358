import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CHILD_SEGMENT_BYTES_MAX, makeChain } from '../../test/fixtures/storage/chain-fixture.js';
import type { ChildRun } from '../../test/fixtures/storage/crash-harness.js';
import { lastHeight, runChild, seededRandom } from '../../test/fixtures/storage/crash-harness.js';
import { toHex } from '../util/hex.js';
import { BlockLog } from './block-log.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'torana-crash-'));
  dirs.push(dir);
  return dir;
}
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** Reopens the log and checks every height the child declared durable, with its hash. */
async function verifyDurable(dir: string, durable: ReadonlyMap<number, string>) {
  const { log, report } = await BlockLog.open(dir, {
    fsync: false,
    segmentBytesMax: CHILD_SEGMENT_BYTES_MAX,
  });
  try {
    assert.ok(
      report.height >= lastHeight(durable),
      `height ${report.height} < printed ${lastHeight(durable)}`,
    );
    for (const [height, hash] of durable) {
      const record = await log.read(height);
      assert.ok(record, `durable height ${height} missing`);
      assert.equal(toHex(record.hash), hash, `hash of height ${height} changed`);
    }
    // Appending after recovery must work and survive another reopen.
    const extra = makeChain(log.height, log.tipHash ?? new Uint8Array(32), 2);
    await log.append(extra);
  } finally {
    await log.close();
  }
  const again = await BlockLog.open(dir, { fsync: false, segmentBytesMax: CHILD_SEGMENT_BYTES_MAX });
  await again.log.close();
  assert.equal(again.report.truncatedTailBytes, 0);
  assert.equal(again.report.height, report.height + 2);
  return report;
}

function assertKilled(run: ChildRun): void {
  assert.equal(run.signal, 'SIGKILL', `child was not killed (code ${run.code}): ${run.stderr}`);
}

describe('BlockLog under kill -9', () => {
  it('keeps every height announced as durable across 5 random kills', async () => {
    const seed = Date.now() % 1_000_000;
    const random = seededRandom(seed);
    const dir = await tempDir();
    const durable = new Map<number, string>();
    for (let round = 0; round < 5; round++) {
      const killAfterMs = 40 + Math.floor(random() * 200);
      const run = await runChild('blocklog', dir, { killAfterMs });
      assertKilled(run);
      assert.ok(run.durable.size > 0, `seed ${seed} round ${round}: child appended nothing`);
      for (const [h, hash] of run.durable) durable.set(h, hash);
      const report = await verifyDurable(dir, durable).catch((e: unknown) => {
        throw new Error(`seed ${seed} round ${round}: ${String(e)}`);
      });
      assert.ok(report.segments >= 1);
      // verifyDurable appended two blocks the child does not know; the next child continues after them.
      const { log } = await BlockLog.open(dir, { fsync: false, segmentBytesMax: CHILD_SEGMENT_BYTES_MAX });
      for (let h = report.height + 1; h <= log.height; h++) durable.set(h, toHex((await log.read(h))!.hash));
      await log.close();
    }
  });
});

describe('BlockLog fail-point matrix', () => {
  const cases: {
    point: string;
    check: (run: ChildRun, report: { height: number; truncatedTailBytes: number }) => void;
  }[] = [
    {
      point: 'blocklog.before-write:3',
      check: (run, r) => assert.equal(r.height, lastHeight(run.durable)),
    },
    {
      point: 'blocklog.mid-write:3',
      check: (run, r) => {
        assert.ok(r.truncatedTailBytes > 0, 'a torn record must be cut off');
        assert.ok(r.height >= lastHeight(run.durable));
      },
    },
    // A process crash keeps the page cache, so written-but-unsynced records survive it.
    { point: 'blocklog.after-write:3', check: (run, r) => assert.ok(r.height > lastHeight(run.durable)) },
    { point: 'blocklog.after-fsync:3', check: (run, r) => assert.ok(r.height > lastHeight(run.durable)) },
    {
      point: 'blocklog.segment-created:2',
      check: (run, r) => assert.equal(r.height, lastHeight(run.durable)),
    },
    { point: 'blocklog.segment-created:1', check: (_run, r) => assert.equal(r.height, 0) },
  ];
  for (const { point, check } of cases) {
    it(`recovers after a crash at ${point}`, async () => {
      const dir = await tempDir();
      const run = await runChild('blocklog', dir, { failPoint: point, maxHeight: 500 });
      assertKilled(run);
      const probe = await BlockLog.open(dir, { fsync: false, segmentBytesMax: CHILD_SEGMENT_BYTES_MAX });
      await probe.log.close();
      check(run, probe.report);
      await verifyDurable(dir, run.durable);
    });
  }

  it('recovers after a crash right after truncating a torn tail', async () => {
    const dir = await tempDir();
    const torn = await runChild('blocklog', dir, { failPoint: 'blocklog.mid-write:4', maxHeight: 500 });
    assertKilled(torn);
    const crashedInOpen = await runChild('blocklog', dir, { failPoint: 'blocklog.recovery-truncated:1' });
    assertKilled(crashedInOpen);
    assert.equal(crashedInOpen.openedAt, undefined, 'the crash must happen inside open');
    const { log, report } = await BlockLog.open(dir, {
      fsync: false,
      segmentBytesMax: CHILD_SEGMENT_BYTES_MAX,
    });
    await log.close();
    assert.equal(report.truncatedTailBytes, 0, 'the tail was already cut before the crash');
    await verifyDurable(dir, torn.durable);
  });
});

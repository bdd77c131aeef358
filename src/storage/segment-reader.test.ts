import assert from 'node:assert/strict';
import type { FileHandle } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { GENESIS_PREV_HASH, makeChain } from '../../test/fixtures/storage/chain-fixture.js';
import { encodeRecords, recordBytes } from './record.js';
import { examineRecord, findNextGoodRecord, SegmentReader } from './segment-reader.js';

/** An in-memory file that remembers the largest buffer a read asked it to fill. */
function memoryFile(bytes: Uint8Array): { handle: FileHandle; largestRead: () => number } {
  let largest = 0;
  const handle = {
    async read(buffer: Uint8Array, offset: number, length: number, position: number) {
      largest = Math.max(largest, buffer.length);
      const n = Math.max(0, Math.min(length, bytes.length - position));
      buffer.set(bytes.subarray(position, position + n), offset);
      return { bytesRead: n, buffer };
    },
  };
  return { handle: handle as unknown as FileHandle, largestRead: () => largest };
}

describe('segment reader', () => {
  const chain = makeChain(0, GENESIS_PREV_HASH, 6);
  const file = encodeRecords(chain);

  it('never reads more than the file holds, whatever the length field claims', async () => {
    const damaged = Uint8Array.from(file);
    new DataView(damaged.buffer).setUint32(4, 900 * 1024 * 1024, true);
    const { handle, largestRead } = memoryFile(damaged);
    const reader = new SegmentReader(handle, damaged.length);
    const verdict = await examineRecord(reader, 0, 1024 * 1024 * 1024);
    assert.deepEqual(verdict, { ok: false, reason: 'short_record' });
    assert.ok(
      largestRead() <= damaged.length,
      `read ${largestRead()} bytes of a ${damaged.length}-byte file`,
    );
  });

  it('walks records through a window smaller than a record', async () => {
    const { handle } = memoryFile(file);
    const reader = new SegmentReader(handle, file.length, 64);
    let offset = 0;
    for (const r of chain) {
      const verdict = await examineRecord(reader, offset, 1 << 20);
      assert.ok(verdict.ok, `record ${r.height}`);
      assert.equal(verdict.totalBytes, recordBytes(r));
      offset += verdict.totalBytes;
    }
    assert.equal(offset, file.length);
  });

  it('finds the next good record after damage, and nothing inside garbage', async () => {
    const { handle } = memoryFile(file);
    const reader = new SegmentReader(handle, file.length, 64);
    const second = recordBytes(chain[0]!);
    assert.equal(await findNextGoodRecord(reader, 1, 1 << 20), second);
    const garbage = Uint8Array.from({ length: 5000 }, (_, i) => (i % 7 === 0 ? 0x54 : i & 0xff));
    const g = memoryFile(garbage);
    assert.equal(
      await findNextGoodRecord(new SegmentReader(g.handle, garbage.length), 0, 1 << 20),
      undefined,
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BlockIndex } from './block-index.js';

describe('block index', () => {
  it('locates heights across segments, including an empty trailing one', () => {
    const index = new BlockIndex();
    index.addSegment({ firstHeight: 1, path: 'a' });
    for (let h = 1; h <= 3; h++) index.add((h - 1) * 100, 100);
    index.addSegment({ firstHeight: 4, path: 'b' });
    for (let h = 4; h <= 5000; h++) index.add((h - 4) * 96, 96);
    index.addSegment({ firstHeight: 5001, path: 'c' });
    assert.equal(index.height, 5000);
    assert.deepEqual(
      [1, 3, 4, 5000].map((h) => {
        const at = index.locate(h)!;
        return [at.segment.file.path, at.offset, at.size];
      }),
      [
        ['a', 0, 100],
        ['a', 200, 100],
        ['b', 0, 96],
        ['b', 479_616, 96],
      ],
    );
    for (const h of [0, -1, 5001, 2.5, Number.NaN]) assert.equal(index.locate(h), undefined);
  });

  it('refuses out-of-order use (programmer errors)', () => {
    const index = new BlockIndex();
    assert.throws(() => index.add(0, 10));
    assert.throws(() => index.addSegment({ firstHeight: 2, path: 'x' }));
    index.addSegment({ firstHeight: 1, path: 'x' });
    assert.throws(() => index.add(5, 100), /file order/);
    // A size no record can have (shorter than a header, or wrapping the index's u32 sizes).
    assert.throws(() => index.add(0, 10), /record size 10/);
    assert.throws(() => index.add(0, 2 ** 32), /record size/);
    index.add(0, 100);
    assert.throws(() => index.segments[0]!.offsetOf(2), /outside segment/);
    assert.throws(() => index.segments[0]!.sizeOf(0), /outside segment/);
  });

  it('holds a million blocks in a few tens of MB', () => {
    const before = process.memoryUsage().arrayBuffers;
    const index = new BlockIndex();
    index.addSegment({ firstHeight: 1, path: 's' });
    for (let h = 0; h < 1_000_000; h++) index.add(h * 300, 300);
    const grown = process.memoryUsage().arrayBuffers - before;
    assert.ok(grown < 40 * 1024 * 1024, `index uses ${grown} bytes`);
    assert.equal(index.locate(999_999)?.offset, 999_998 * 300);
  });
});
